#!/usr/bin/env python3
"""Reads the Autobahn-format index.json that kosoku writes and says whether every case passed.

    scripts/ws_conformance_summary.py .build/ws-conformance/index.json [--expect N]

A case passes when its behaviour is OK, NON-STRICT or INFORMATIONAL and its closing behaviour OK
or INFORMATIONAL. Prints one line per case group (verdict counts), every case that did not pass,
and a last line `ws-conformance: N cases, N passed, N failed`. Exit status 1 when a case did not
pass, when there are no cases at all (the runner did not get to run them), or when --expect N is
given and the report holds fewer than N cases.
"""
import argparse
import collections
import json
import sys

PASSING = {"OK", "NON-STRICT", "INFORMATIONAL"}
PASSING_CLOSE = {"OK", "INFORMATIONAL"}


def case_key(case_id):
    return [int(part) if part.isdigit() else part for part in case_id.split(".")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("index")
    parser.add_argument("--expect", type=int, default=0, help="fail unless at least this many cases ran")
    args = parser.parse_args()
    try:
        with open(args.index) as file:
            index = json.load(file)
    except (OSError, ValueError) as error:
        print(f"ws-conformance: no readable report at {args.index}: {error}")
        return 1
    cases = {case_id: result for agent in index.values() for case_id, result in agent.items()}
    failed = []
    by_group = collections.defaultdict(collections.Counter)
    for case_id in sorted(cases, key=case_key):
        result = cases[case_id]
        behavior, close = result.get("behavior"), result.get("behaviorClose")
        by_group[case_id.split(".")[0]][behavior] += 1
        if behavior not in PASSING or close not in PASSING_CLOSE:
            failed.append((case_id, behavior, close))
    for group in sorted(by_group, key=case_key):
        counts = ", ".join(f"{count} {verdict}" for verdict, count in sorted(by_group[group].items()))
        print(f"  group {group:>2}: {counts}")
    for case_id, behavior, close in failed:
        print(f"  FAILED {case_id}: behavior={behavior} behaviorClose={close}")
    print(f"ws-conformance: {len(cases)} cases, {len(cases) - len(failed)} passed, {len(failed)} failed")
    if not cases:
        print("ws-conformance: the report holds no case")
        return 1
    if len(cases) < args.expect:
        print(f"ws-conformance: expected at least {args.expect} cases")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
