#!/usr/bin/env python3
"""Validates JSON documents against ZoneStream's schemas (schemas/*.schema.json, draft 2020-12).

Usage: validate-json.py SCHEMA [--expect-invalid] < documents
Reads one JSON document per line on standard input. Prints one line per document that does
not validate (or, with --expect-invalid, that does) and exits 1 if there was any.
"""
import json
import sys

from jsonschema import Draft202012Validator


def main():
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    expect_invalid = "--expect-invalid" in sys.argv
    if len(arguments) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(arguments[0]) as file:
        schema = json.load(file)
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    failures = 0
    count = 0
    for number, line in enumerate(sys.stdin, start=1):
        if not line.strip():
            continue
        count += 1
        try:
            document = json.loads(line)
        except json.JSONDecodeError as error:
            if not expect_invalid:
                failures += 1
                print(f"line {number}: not JSON: {error}")
            continue
        errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
        if errors and not expect_invalid:
            failures += 1
            print(f"line {number}: {errors[0].message} at {'/'.join(map(str, errors[0].path)) or 'the root'}: {line.strip()[:300]}")
        elif not errors and expect_invalid:
            failures += 1
            print(f"line {number}: valid, but expected not to be: {line.strip()[:300]}")
    print(f"{count} documents, {failures} failures", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
