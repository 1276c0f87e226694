// A tiny Google Benchmark suite for qoscal's fixtures: sorting and a map
// lookup, built at -O0 (baseline) and -O2 (candidate).
#include <benchmark/benchmark.h>
#include <algorithm>
#include <map>
#include <vector>

static void BM_Sort(benchmark::State& state) {
  std::vector<int> v(state.range(0));
  for (auto _ : state) {
    for (size_t i = 0; i < v.size(); i++) v[i] = static_cast<int>((i * 2654435761u) % 1000003);
    std::sort(v.begin(), v.end());
    benchmark::DoNotOptimize(v.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Sort)->Arg(256)->Arg(4096);

static void BM_MapFind(benchmark::State& state) {
  std::map<int, int> m;
  for (int i = 0; i < 1000; i++) m[i * 7] = i;
  int k = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(m.find(k));
    k = (k + 7) % 7000;
  }
}
BENCHMARK(BM_MapFind);

BENCHMARK_MAIN();
