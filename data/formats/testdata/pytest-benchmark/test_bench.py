"""A tiny pytest-benchmark suite for qoscal's fixtures: two ways of summing
and of joining, chosen by the QOSCAL_FIXTURE_IMPL environment variable."""
import os

SLOW = os.environ.get("QOSCAL_FIXTURE_IMPL") == "slow"


def total(n):
    if SLOW:
        s = 0
        for i in range(n):
            s += i
        return s
    return sum(range(n))


def join(parts):
    if SLOW:
        s = ""
        for p in parts:
            s += p
        return s
    return "".join(parts)


def test_total(benchmark):
    assert benchmark(total, 20000) == sum(range(20000))


def test_join(benchmark):
    parts = ["ab"] * 2000
    assert benchmark(join, parts) == "ab" * 2000
