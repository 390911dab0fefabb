#!/usr/bin/env python3
"""Figures and a plot of a soak run (scripts/soak.sh).

    benchmarks/soak_plot.py DIRECTORY IMAGE

Reads DIRECTORY/samples-NAME.csv (second, rss_kib, fds, threads, and in newer runs rss_anon_kib,
rss_file_kib, wal_kib) and DIRECTORY/rounds-NAME.csv (minute, p50_ms, p99_ms, ok, errors) for each
run, prints RSS growth after the first minute's warm-up, the range of descriptors and threads after
it, the largest write-ahead log, p99 in the first and last minutes and the errors, and draws RSS,
the write-ahead log's size and p99 over time into IMAGE.
"""
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read(path):
    with open(path) as file:
        return [{key: float(value) for key, value in row.items()} for row in csv.DictReader(file)]


def main():
    directory, image = pathlib.Path(sys.argv[1]), sys.argv[2]
    names = sorted(path.stem.removeprefix("samples-") for path in directory.glob("samples-*.csv"))
    figure, (rss_axis, wal_axis, p99_axis) = plt.subplots(
        3, 1, figsize=(9, 9), sharex=True, gridspec_kw={"height_ratios": [3, 2, 3]}
    )
    for name in names:
        samples = read(directory / f"samples-{name}.csv")
        rounds = read(directory / f"rounds-{name}.csv")
        warm = [row for row in samples if row["second"] >= 60 and row["rss_kib"] > 0]
        if not warm:
            warm = samples
        start, end = warm[0]["rss_kib"], warm[-1]["rss_kib"]
        peak = max(row["rss_kib"] for row in warm)
        print(
            f"{name}: RSS {start / 1024:.1f} MiB after warm-up, {end / 1024:.1f} MiB at the end "
            f"({(end - start) / start * 100:+.1f} %), peak {peak / 1024:.1f} MiB; "
            f"descriptors {min(r['fds'] for r in warm):.0f}–{max(r['fds'] for r in warm):.0f}, "
            f"threads {min(r['threads'] for r in warm):.0f}–{max(r['threads'] for r in warm):.0f}; "
            f"write-ahead log at most {max(r.get('wal_kib', 0) for r in samples) / 1024:.1f} MiB; "
            f"p99 {rounds[0]['p99_ms']:.1f} ms in the first minute, {rounds[-1]['p99_ms']:.1f} ms in the last "
            f"(highest {max(r['p99_ms'] for r in rounds):.1f}); "
            f"{sum(r['ok'] for r in rounds):.0f} answers, {sum(r['errors'] for r in rounds):.0f} errors"
        )
        rss_axis.plot([r["second"] / 60 for r in samples], [r["rss_kib"] / 1024 for r in samples], label=name)
        wal_axis.plot([r["second"] / 60 for r in samples], [r.get("wal_kib", 0) / 1024 for r in samples], label=name)
        p99_axis.plot([r["minute"] - 0.5 for r in rounds], [r["p99_ms"] for r in rounds], marker="o", label=name)
    rss_axis.set_ylabel("server RSS (MiB)")
    rss_axis.set_ylim(bottom=0)
    rss_axis.legend()
    rss_axis.set_title("Soak: store serve on SQLite under wrk (256 connections)")
    wal_axis.set_ylabel("write-ahead log (MiB)")
    wal_axis.set_ylim(bottom=0)
    wal_axis.legend()
    p99_axis.set_ylabel("p99 latency per minute (ms)")
    p99_axis.set_xlabel("minutes")
    p99_axis.set_ylim(bottom=0)
    p99_axis.legend()
    figure.tight_layout()
    figure.savefig(image, dpi=100)


if __name__ == "__main__":
    main()
