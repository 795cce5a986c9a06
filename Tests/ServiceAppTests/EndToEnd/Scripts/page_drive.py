"""What chromium_cdp_drive.py and firefox_bidi_drive.py share: their arguments, the browser's
start and stop, and the expression that waits for the page's connection to be open and runs the
drive in the page."""
import argparse
import shutil
import socket
import subprocess
import tempfile


def arguments(description):
    """BROWSER URL DRIVE_FILE [--screenshot FILE] [--preload FILE] [--viewport WxH] [--timeout S]:
    the parsed arguments, with `drive` and `preload` read from their files and `viewport` as
    (width, height)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("browser", help="the browser's executable")
    parser.add_argument("url", help="the page to load")
    parser.add_argument("drive_file", help="the drive: the body of a function given $, doc and finish(text)")
    parser.add_argument("--screenshot", help="save a PNG of the page there once the drive finished")
    parser.add_argument("--preload", help="JavaScript to run in every new document before the page's own scripts")
    parser.add_argument("--viewport", default="1000x700", help="the page's size in CSS pixels, WIDTHxHEIGHT")
    parser.add_argument("--timeout", type=float, default=20, help="seconds the drive may take")
    args = parser.parse_args()
    with open(args.drive_file, encoding="utf-8") as file:
        args.drive = file.read()
    args.preload_source = None
    if args.preload:
        with open(args.preload, encoding="utf-8") as file:
            args.preload_source = file.read()
    width, height = args.viewport.split("x")
    args.size = (int(width), int(height))
    return args


def expression(drive, timeout):
    """A promise of the text the drive finishes with ("timeout" after `timeout` seconds)."""
    return """new Promise(function (finish) {
      var doc = document, $ = function (id) { return doc.getElementById(id); }, started = false;
      setTimeout(function () { finish("timeout"); }, %d);
      function onConnection() {
        if (started || $("connection").getAttribute("data-state") !== "open") { return; }
        started = true;
        (function ($, doc, finish) {
    """ % int(timeout * 1000) + drive + """
        })($, doc, finish);
      }
      new MutationObserver(onConnection).observe($("connection"), { attributes: true });
      onConnection();
    })"""


def socket_log_expression():
    """What the preloaded socket_recorder.js recorded, as JSON text."""
    return "JSON.stringify(window.__socketLog || null)"


def start_browser(command, prefix):
    """Starts `command(port, profile)` (the browser's argument list, given a free loopback port for
    its remote protocol and a fresh profile folder); returns (process, port, profile)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    profile = tempfile.mkdtemp(prefix=prefix)
    process = subprocess.Popen(command(port, profile), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return process, port, profile


def stop_browser(process, profile):
    """Ends the browser (killed if it has not gone 10 s after being asked) and removes its profile."""
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
    shutil.rmtree(profile, ignore_errors=True)
