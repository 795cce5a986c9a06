"""What chromium_cdp_drive.py and firefox_bidi_drive.py share: their arguments, and the
expression that waits for the page's connection to be open and runs the drive in the page."""


def arguments(argv):
    """BROWSER URL DRIVE_FILE [SCREENSHOT] [--preload FILE] → (browser, url, drive, screenshot, preload)."""
    preload = None
    if "--preload" in argv:
        index = argv.index("--preload")
        with open(argv[index + 1], encoding="utf-8") as file:
            preload = file.read()
        argv = argv[:index] + argv[index + 2:]
    browser, url, drive_file = argv[:3]
    with open(drive_file, encoding="utf-8") as file:
        drive = file.read()
    return browser, url, drive, (argv[3] if len(argv) > 3 else None), preload


def expression(drive):
    """A promise of the text the drive finishes with ("timeout" after 20 s)."""
    return """new Promise(function (finish) {
      var doc = document, $ = function (id) { return doc.getElementById(id); }, started = false;
      setTimeout(function () { finish("timeout"); }, 20000);
      function onConnection() {
        if (started || $("connection").getAttribute("data-state") !== "open") { return; }
        started = true;
        (function ($, doc, finish) {
    """ + drive + """
        })($, doc, finish);
      }
      new MutationObserver(onConnection).observe($("connection"), { attributes: true });
      onConnection();
    })"""
