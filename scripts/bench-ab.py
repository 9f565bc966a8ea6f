#!/usr/bin/env python3
"""Interleaved A/B of two Google Benchmark binaries (docs/performance.md).

  scripts/bench-ab.py BEFORE AFTER ROUNDS OUT.json [benchmark options...]
  scripts/bench-ab.py --table OUT.json [cpu_time|real_time|COUNTER]

Runs ROUNDS rounds of BEFORE then AFTER with the same options, keeps every
run's JSON in OUT.json; --table prints per benchmark the median of each and
the median of the paired ratios AFTER / BEFORE (a round's two runs are close
in time, so the machine's drift cancels in their ratio).
"""
import json
import statistics
import subprocess
import sys


def run(before, after, rounds, out, options):
    runs = {'A': [], 'B': []}
    for r in range(rounds):
        for tag, exe in (('A', before), ('B', after)):
            p = subprocess.run([exe, '--benchmark_format=json'] + options, capture_output=True, text=True, check=True)
            runs[tag].append({x['name']: x for x in json.loads(p.stdout)['benchmarks']})
            print(f'round {r} {tag} done', file=sys.stderr, flush=True)
    with open(out, 'w') as f:
        json.dump(runs, f)


def table(path, key):
    with open(path) as f:
        runs = json.load(f)
    for name in runs['B'][0]:
        after = [r[name][key] for r in runs['B'] if name in r]
        before = [r[name][key] for r in runs['A'] if name in r]
        label = runs['B'][0][name].get('label', '')
        if before:
            ratio = statistics.median(b / a for a, b in zip(before, after))
            print(f'{name}\t{statistics.median(before):.4g}\t{statistics.median(after):.4g}\t{ratio:.3f}\t{label}')
        else:
            print(f'{name}\t-\t{statistics.median(after):.4g}\t-\t{label}')


if __name__ == '__main__':
    if sys.argv[1] == '--table':
        table(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else 'cpu_time')
    else:
        run(sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5:])
