#include "algorithms/offline/entries.h"

#include "algorithms/offline/offline.h"
#include "algorithms/permutations/conventional.h"

namespace mmsim {

const std::vector<PermutationAlgorithm>& permutation_algorithms() {
  static const std::vector<PermutationAlgorithm> all{
      // [KNI] Sect. 4
      d_designated(),
      s_designated(),
      // [KNI] Sect. 5
      transpose_algorithm(),
      shuffle_algorithm(),
      bit_reversal_algorithm(),
      // [KNI] Sect. 6-7, and the scheduled permutation as the GPU's three-pass kernels run it
      row_wise_algorithm(),
      column_wise_algorithm(),
      scheduled_algorithm(),
      scheduled_fused_algorithm(),
  };
  return all;
}

const PermutationAlgorithm* find_permutation_algorithm(const std::string& name) {
  for (const auto& a : permutation_algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

namespace offline {

RunReport run_permutation(const PermutationAlgorithm& algo, const Machine& machine, const PermutationInput& in,
                          const EngineOptions& options) {
  RunReport r = algo.run(machine, in, options);
  r.algorithm = algo.name;
  r.paper = algo.paper;
  r.machine = machine.params();
  r.execution = options.execution;
  r.n = in.perm->size();
  // D_w of what was moved: P, unless the run said it moved a permutation derived from it.
  if (!r.permutation) {
    const auto w = static_cast<std::uint64_t>(r.machine.w);
    r.permutation = in.perm->name;
    r.distribution = distribution(in.perm->p, w, options.threads);
    r.distribution_inverse = distribution(inverse(in.perm->p, options.threads), w, options.threads);
  }
  return r;
}

namespace {

// 2^28 cells keep a run within a few GB of host memory.
constexpr std::int64_t kMaxN = std::int64_t{1} << 28;

// One run of `algo` as the registry asks for it: P from --perm or --perm-file, then the run.
RunReport run_entry(const PermutationAlgorithm& algo, const RunRequest& req) {
  const auto n = static_cast<std::uint64_t>(req.params.integer("n"));
  const auto seed = static_cast<std::uint64_t>(req.params.integer("seed"));
  const auto file = req.params.text_if("perm_file");
  const Permutation p = file ? read_permutation_file(*file, n) : named_permutation(req.params.text("perm"), n, seed);
  PermutationInput in;
  in.perm = &p;
  in.seed = seed;
  in.schedule_file = req.params.text_if("schedule");
  if (algo.name == "scheduled-fused") in.block_rows = static_cast<std::uint32_t>(req.params.integer("rows"));
  algo.check(req.machine, in);
  const Machine machine(req.machine);
  return run_permutation(algo, machine, in, req.engine);
}

AlgorithmEntry entry_for(const PermutationAlgorithm& algo, const std::string& default_perm) {
  std::vector<ParamSpec> params = machine_params(ModelKind::Hmm);
  params.push_back(integer_param("n", "-n", "number of elements", 1, kMaxN));
  params.back().required = true;
  params.push_back(
      choice_param("perm", "--perm", "named permutation P (KNI Sect. 4)", permutation_names(), default_perm));
  params.push_back(
      text_param("perm_file", "--perm-file", "permutation file: one destination P(i) per line (replaces --perm)"));
  if (algo.name == "scheduled" || algo.name == "scheduled-fused")
    params.push_back(text_param("schedule", "--schedule", "precomputed schedule file (mmsim schedule)"));
  if (algo.name == "scheduled-fused")
    params.push_back(integer_param("rows", "--rows",
                                   "rows per block, a power of two dividing sqrt(n) (0: as the GPU kernel chooses for "
                                   "4-byte cells: at most 8 in 128 KiB of shared memory)",
                                   0, 65536, 0));
  params.push_back(seed_param());
  const PermutationAlgorithm* a = &algo;
  return {.name = algo.name,
          .family = "offline-permutation",
          .paper = algo.paper,
          .description = algo.description,
          .machine = ModelKind::Hmm,
          .params = std::move(params),
          .size =
              [](const RunRequest& req) {
                return RunSize{.cells = static_cast<std::uint64_t>(req.params.integer("n")), .options = {"n"}};
              },
          .run = [a](const RunRequest& req) { return run_entry(*a, req); }};
}

}  // namespace

std::vector<AlgorithmEntry> algorithm_entries() {
  std::vector<AlgorithmEntry> out;
  for (const auto& a : permutation_algorithms()) {
    // The in-place regular permutations move along their own P; the others take any, random first.
    const bool regular = a.name == "transpose" || a.name == "shuffle" || a.name == "bit-reversal";
    out.push_back(entry_for(a, regular ? a.name : "random"));
  }
  return out;
}

void append_catalogue(std::vector<CatalogueEntry>& out) {
  const std::vector<std::pair<std::string, std::string>> perms{
      {"identical", "P(u) = u"},
      {"shuffle", "P(u_m ... u_1) = u_{m-1} ... u_1 u_m (n a power of two)"},
      {"bit-reversal", "P(u_m ... u_1) = u_1 ... u_m (n a power of two)"},
      {"transpose", "P(i sqrt(n) + j) = j sqrt(n) + i (n a perfect square)"},
      {"random", "uniform over all n! permutations, from --seed (default 1)"},
  };
  for (const auto& [name, what] : perms) out.push_back({"permutation", name, what, "KNI Sect. 4"});
  out.push_back({"permutation", "--perm-file F", "one destination P(i) per line, i = 0..n-1", "KNI Sect. 4"});
}

}  // namespace offline
}  // namespace mmsim
