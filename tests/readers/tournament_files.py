#!/usr/bin/env python3
"""Reads a tournament's exported files with Python's own parsers, not arbiter's.

    tournament_files.py xml=FILE csv=FILE json=FILE sheet=FILE ...

xml: the OpenGotha file through xml.etree.ElementTree (expat); csv: the
standings through the csv module (RFC 4180 quoting, strict); json: through
the json module; sheet: the CSV for a spreadsheet as a spreadsheet's
"CSV UTF-8" import reads it (the csv module over "utf-8-sig", which takes
the byte-order mark off), with whether it had one and each cell a
spreadsheet would take for a formula (OWASP, "CSV Injection": one that
begins with = + - @, a tab or a carriage return and is not a number).
Prints what they read as one JSON object, {"xml": {"root", "players":
[[name, firstName, rank]...], "games": [[blackPlayer, whitePlayer, result,
roundNumber]...]}, "csv": [[field...]...], "json": the document, "sheet":
{"bom", "rows", "formulas"}}, for a test to compare with what arbiter meant
to write. Exit 1, naming the file, when a parser refuses one; 2 on bad usage.
"""
import codecs
import io
import csv
import json
import sys
import xml.etree.ElementTree as ET


def is_formula(cell):
    if not cell or cell[0] not in "=+-@\t\r":
        return False
    try:
        float(cell)
        return False
    except ValueError:
        return True


def read(kind, path):
    if kind == "xml":
        root = ET.parse(path).getroot()
        return {
            "root": root.tag,
            "players": [[p.get("name"), p.get("firstName"), p.get("rank")]
                        for p in root.iter("Player")],
            "games": [[g.get("blackPlayer"), g.get("whitePlayer"), g.get("result"),
                       g.get("roundNumber")] for g in root.iter("Game")],
        }
    if kind == "csv":
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.reader(f, strict=True))
    if kind == "sheet":
        with open(path, "rb") as f:
            raw = f.read()
        rows = list(csv.reader(io.StringIO(raw.decode("utf-8-sig"), newline=""), strict=True))
        return {
            "bom": raw.startswith(codecs.BOM_UTF8),
            "rows": rows,
            "formulas": [cell for row in rows for cell in row if is_formula(cell)],
        }
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv):
    out = {}
    for arg in argv[1:]:
        kind, _, path = arg.partition("=")
        if kind not in ("xml", "csv", "json", "sheet") or not path:
            print(f"usage: {argv[0]} xml=FILE csv=FILE json=FILE sheet=FILE", file=sys.stderr)
            return 2
        try:
            out[kind] = read(kind, path)
        except (ET.ParseError, csv.Error, json.JSONDecodeError, UnicodeDecodeError) as e:
            print(f"{path}: {kind} parser refuses it: {e}", file=sys.stderr)
            return 1
    json.dump(out, sys.stdout, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
