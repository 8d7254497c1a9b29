#!/usr/bin/env python3
"""Validates results documents against reports/results.schema.json.

    check_schema.py SCHEMA FILE...     exit 0 every FILE validates, 1 one does not
                                       (each error printed with its JSON path),
                                       77 (ctest SKIP) when python3-jsonschema is absent.
"""
import json
import sys


def main(argv):
    if len(argv) < 3:
        print("usage: check_schema.py SCHEMA FILE...", file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("SKIP: the Python module jsonschema is not installed (Debian: python3-jsonschema)")
        return 77
    with open(argv[1]) as f:
        schema = json.load(f)
    jsonschema.Draft7Validator.check_schema(schema)
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for path in argv[2:]:
        with open(path) as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        for e in errors[:10]:
            where = "/".join(str(p) for p in e.absolute_path) or "(top)"
            print(f"{path}: {where}: {e.message[:300]}")
        if errors:
            bad += 1
            print(f"{path}: INVALID ({len(errors)} errors)")
        else:
            print(f"{path}: valid (schema_version {doc.get('schema_version')}, "
                  f"{len(doc.get('cases', []))} cases)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
