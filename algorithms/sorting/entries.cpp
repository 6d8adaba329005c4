#include "algorithms/sorting/entries.h"

#include <bit>
#include <optional>

#include "algorithms/sorting/sorting.h"
#include "io/input_error.h"

namespace mmsim::sorting {

namespace {

// The matrix of AS Sect. 1 is one DMM's shared memory: w * m cells, at most 2^22 (16 MiB of words)
// keeps a run's scratch regions and its per-step statistics within a few GB of host memory.
constexpr std::uint64_t kMaxCells = std::uint64_t{1} << 22;
constexpr std::int64_t kMaxW = 1024;
constexpr std::int64_t kMaxM = 65536;
constexpr std::uint64_t kMaxSortWork = std::uint64_t{1} << 27;

using Runner = SortingRun (*)(int w, std::uint64_t m, const std::vector<Word>& input, std::uint64_t seed,
                              const EngineOptions& engine);

// The family's one list: what each algorithm is called, which result of the paper it runs, the
// problem it solves (hence the input it takes), and how to run it.
struct Algorithm {
  const char* name;
  const char* paper;
  const char* description;
  Task task;
  Runner run;
};

const std::vector<Algorithm>& family() {
  using In = const std::vector<Word>&;
  using E = const EngineOptions&;
  static const std::vector<Algorithm> all{
      {"as-sort", "AS Sect. 2, Lemma 1, Theorems 1-2",
       "sorting a w x m matrix without bank conflicts (Lemma 1, Theorems 1-2, compositions)", Task::Sort,
       [](int w, std::uint64_t m, In in, std::uint64_t, E e) { return as_sort(w, m, in, e); }},
      {"as-partition", "AS Sect. 2, Corollary 1, Theorem 1, Lemma 2",
       "w-way partition without bank conflicts (Corollary 1, Theorem 1, Lemma 2)", Task::Partition,
       [](int w, std::uint64_t m, In in, std::uint64_t, E e) { return as_partition(w, m, in, e); }},
      {"as-partition-sort", "AS Sect. 2, Corollary 1, Theorems 1-2",
       "w-way partition by the sorting algorithms with radix-sorted rows", Task::Partition,
       [](int w, std::uint64_t m, In in, std::uint64_t, E e) { return as_partition_sort_based(w, m, in, e); }},
      {"as-permute", "AS Sect. 3, Theorem 4, Appendix B",
       "randomized permutation without bank conflicts (colouring by a random hash; finish: packing, Lemma 2, three "
       "groups of sends)",
       Task::Permute,
       [](int w, std::uint64_t m, In in, std::uint64_t seed, E e) { return as_permute(w, m, in, seed, e); }},
      {"as-sort-bitonic", "AS Sect. 1", "baseline: bitonic network over the row-major flat array", Task::Sort,
       [](int w, std::uint64_t m, In in, std::uint64_t, E e) { return bitonic_flat(w, m, in, e); }},
      {"as-partition-direct", "AS Sect. 1", "baseline: every item sent straight to its row", Task::Partition,
       [](int w, std::uint64_t m, In in, std::uint64_t, E e) { return direct_partition(w, m, in, e); }},
      {"as-permute-direct", "AS Sect. 1", "baseline: every item sent straight to its cell", Task::Permute,
       [](int w, std::uint64_t m, In in, std::uint64_t, E e) { return direct_permute(w, m, in, e); }},
  };
  return all;
}

const char* input_help(Task task) {
  switch (task) {
    case Task::Sort:
      return "input file: w*m unsigned 32-bit keys, one per line (instead of random keys from --seed)";
    case Task::Partition:
      return "input file: w*m labels, m of each row index in [0, w), one per line (instead of random labels)";
    case Task::Permute:
      return "input file: a permutation of [0, w*m), one label per line; label a*m + b goes to row a, column b "
             "(instead of a random permutation)";
  }
  return "";
}

std::vector<ParamSpec> params_for(Task task) {
  // AS Sect. 1 fixes the latency at 1 (every access is one time step): no -l.
  std::vector<ParamSpec> p = machine_params(ModelKind::Dmm, 1, kMaxW, IntegerShape::PowerOfTwo, /*with_latency=*/false);
  ParamSpec m = integer_param("m", "-m,--columns", "columns of the w x m matrix (items per bank)", 1, kMaxM,
                              std::nullopt, IntegerShape::PowerOfTwo);
  m.required = true;
  p.push_back(m);
  p.push_back(text_param("keys_file", "--keys-file", input_help(task)));
  p.push_back(seed_param());
  return p;
}

RunReport run_entry(const Algorithm& a, const RunRequest& req) {
  const int w = req.machine.w;
  const auto m = static_cast<std::uint64_t>(req.params.integer("m"));
  const std::uint64_t n = static_cast<std::uint64_t>(w) * m;
  if (n > kMaxCells)  // the one rule on two options: the registry checked each alone
    throw InputError(std::string(a.name) + ": -w, -m: w * m must be at most 2^22 = 4194304 (got w = " +
                     std::to_string(w) + ", m = " + std::to_string(m) + ")");
  // Work bounded up front: the sorts take O(log^2 m) passes over the w * m cells (AS Sect. 2), and
  // their time grew as that estimate does (-w 32: m = 4096 in 6 s, m = 16384 in 45 s on one core).
  const auto log_m = static_cast<std::uint64_t>(std::bit_width(m));
  const std::uint64_t work = n * log_m * log_m;
  if (work > kMaxSortWork)
    throw InputError(std::string(a.name) + ": -w, -m: about " + std::to_string(work) +
                     " cell-passes of simulated work (w * m * (log2 m + 1)^2), more than the 2^27 a run may take "
                     "(minutes); choose a smaller -m");
  const auto seed = static_cast<std::uint64_t>(req.params.integer("seed"));
  std::vector<Word> input;
  if (const auto file = req.params.text_if("keys_file")) {
    input = read_keys_file(*file, n);
    check_input(a.task, w, m, input, "--keys-file: " + *file);
  } else {
    input = random_input(a.task, w, m, seed);
  }
  const SortingRun run = a.run(w, m, input, seed, req.engine);

  RunReport r;
  r.n = n;
  r.stats = run.stats();
  r.trace = run.trace();
  // The theorems bound the steps up to constants (O(m log mw), O(m), O(m log_m^3 w)): no exact
  // closed form to predict.
  r.predicted_time_units = std::nullopt;
  r.figure("method", run.method);
  r.figure("steps", run.summary.steps);
  r.figure("cac_violations", run.summary.cac_violations);
  r.figure("max_congestion", static_cast<std::int64_t>(run.summary.max_congestion));
  for (const auto& [name, value] : run.figures) r.figure(name, value);
  r.correct = run.correct;
  return r;
}

}  // namespace

std::vector<AlgorithmEntry> algorithm_entries() {
  std::vector<AlgorithmEntry> out;
  for (const auto& a : family()) {
    const Algorithm* algo = &a;
    // One warp whose steps follow one another (AS Sect. 1: the w processors move in lockstep), so
    // there is nothing for asynchronous execution to overlap.
    out.push_back({.name = a.name,
                   .family = "sorting",
                   .paper = a.paper,
                   .description = a.description,
                   .machine = ModelKind::Dmm,
                   .params = params_for(a.task),
                   .asynchronous = false,
                   .traces = true,
                   .size =
                       [](const RunRequest& req) {
                         const auto m = static_cast<std::uint64_t>(req.params.integer("m"));
                         return RunSize{.cells = static_cast<std::uint64_t>(req.machine.w) * m, .options = {"w", "m"}};
                       },
                   .run = [algo](const RunRequest& req) { return run_entry(*algo, req); }});
  }
  return out;
}

// The family names nothing but its algorithms: their inputs are described by --keys-file's help.
void append_catalogue(std::vector<CatalogueEntry>&) {}

}  // namespace mmsim::sorting
