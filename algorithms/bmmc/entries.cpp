#include "algorithms/bmmc/entries.h"

#include <fstream>

#include "algorithms/bmmc/bmmc_time.h"
#include "algorithms/bmmc/parm.h"
#include "algorithms/bmmc/tiled.h"
#include "io/input_error.h"
#include "io/output_file.h"
#include "io/output_path.h"

namespace mmsim::bmmc {

namespace {

// 2^24 cells keep a run within a few hundred MB of host memory and a few seconds (the parser's bound).
constexpr int kMaxBits = f2::kMaxSimulatedBits;
constexpr std::int64_t kMaxN = std::int64_t{1} << kMaxBits;

const std::vector<std::string>& bpc_names() {
  static const std::vector<std::string> all{"bit-reversal", "transpose", "shuffle", "unshuffle", "reverse", "identity"};
  return all;
}

f2::Bmmc named_bpc(const std::string& name, int bits) {
  if (name == "bit-reversal") return f2::bit_reversal(bits);
  if (name == "transpose") return f2::transpose(bits / 2, bits - bits / 2);
  if (name == "shuffle") return f2::shuffle(bits);
  if (name == "unshuffle") return f2::unshuffle(bits);
  if (name == "reverse") return f2::complement(bits, f2::low_bits(bits));
  return f2::identity(bits);  // the last of the declared choices
}

std::vector<std::string> kernel_names() {
  std::vector<std::string> out;
  for (auto k : all_kernels()) out.emplace_back(to_string(k));
  return out;
}

/// The parameters both entries share: the HMM (w a power of two: tiles are w x w and the kernels
/// split indices into bits), the kernel and its iterations.
std::vector<ParamSpec> kernel_params() {
  std::vector<ParamSpec> p = machine_params(ModelKind::Hmm, 1, 65536, IntegerShape::PowerOfTwo);
  p.push_back(choice_param("kernel", "--kernel", "permutation kernel ([BDS] Sect. 4, App. A)", kernel_names(),
                           to_string(KernelKind::TileBanks)));
  // No default: a pass takes min(3, its free bits) unless told, which one number cannot say.
  p.push_back(integer_param("iters", "--iters",
                            "log2 of the tiles per block of tile-banks-iters (default min(3, the index bits outside "
                            "one tile))",
                            0, kMaxBits));
  return p;
}

BmmcOptions kernel_options(const ParamValues& params) {
  BmmcOptions o;
  o.kernel = *parse_kernel(params.text("kernel"));  // a declared choice
  if (auto i = params.integer_if("iters")) o.iters = static_cast<int>(*i);
  return o;
}

int bits_of(std::int64_t n) { return __builtin_ctzll(static_cast<std::uint64_t>(n)); }  // n: a declared power of two

// The map a --matrix value holds. A file was checked as it was read (f2::read_bmmc_file); a value a
// caller built in memory is checked here, with the file's rules.
f2::Bmmc bmmc_of(const BitMatrixValue& v) {
  const auto bits = static_cast<int>(v.rows.size());
  if (bits < 1 || bits > kMaxBits)
    throw InputError("--matrix: " + std::to_string(bits) + " rows, so n = 2^" + std::to_string(bits) +
                     "; the simulator takes 1 to " + std::to_string(kMaxBits) + " rows");
  f2::Bmmc f;
  try {
    f.a = f2::BitMatrix::from_rows(v.rows);
  } catch (const std::invalid_argument&) {
    throw InputError("--matrix " + quote(v.source, 60) + ": a row has bits at or above the " + std::to_string(bits) +
                     " columns");
  }
  if (v.complement & ~f2::low_bits(bits))
    throw InputError("--matrix " + quote(v.source, 60) + ": the complement has bits at or above the " +
                     std::to_string(bits) + " columns");
  f.c = v.complement;
  if (!f2::invertible(f.a))
    throw InputError("--matrix " + quote(v.source, 60) + ": the matrix is singular over F2 (rank " +
                     std::to_string(f2::rank(f.a)) + " of " + std::to_string(bits) + "), so it permutes nothing");
  return f;
}

// What a bmmc run holds: n cells, from -n or from the matrix's rows.
RunSize bmmc_size(const RunRequest& req) {
  if (const auto n = req.params.integer_if("n")) return {.cells = static_cast<std::uint64_t>(*n), .options = {"n"}};
  if (const BitMatrixValue* m = req.params.matrix_if("matrix");
      m && m->rows.size() <= static_cast<std::size_t>(kMaxBits))
    return {.cells = std::uint64_t{1} << m->rows.size(), .options = {"matrix"}};
  return {};  // the run says what is missing
}

RunReport run_bmmc_entry(const RunRequest& req) {
  const ParamValues& p = req.params;
  const BitMatrixValue* matrix = p.matrix_if("matrix");
  const auto bpc = p.text_if("bpc");
  const bool random_bpc = p.flag("random_bpc"), random_bmmc = p.flag("random_bmmc");
  if (static_cast<int>(matrix != nullptr) + random_bpc + random_bmmc + static_cast<int>(bpc.has_value()) != 1)
    throw InputError("bmmc: give exactly one of --matrix FILE, --random-bpc, --random-bmmc, --bpc NAME");
  const auto save = p.text_if("save_matrix");
  if (save) check_output_file("--save-matrix", *save);  // before any work
  const auto n = p.integer_if("n");
  const auto seed = static_cast<std::uint64_t>(p.integer("seed"));
  f2::Bmmc f;
  std::string what;
  if (matrix) {
    f = bmmc_of(*matrix);
    if (n && bits_of(*n) != f.bits())
      throw InputError("-n: the --matrix has " + std::to_string(f.bits()) + " rows, so n must be 2^" +
                       std::to_string(f.bits()) + " (got " + std::to_string(*n) + "); leave -n out");
    what = "matrix " + matrix->source;
  } else {
    if (!n) throw InputError("-n: required with --random-bpc, --random-bmmc and --bpc: a power of two in [2, 2^24]");
    Rng rng(seed);
    if (random_bpc)
      f = f2::random_bpc(bits_of(*n), rng), what = "random BPC (seed " + std::to_string(seed) + ")";
    else if (random_bmmc)
      f = f2::random_bmmc(bits_of(*n), rng), what = "random BMMC (seed " + std::to_string(seed) + ")";
    else
      f = named_bpc(*bpc, bits_of(*n)), what = *bpc;
  }
  const BmmcOptions ko = kernel_options(p);
  check_bmmc(req.machine, f, ko);
  if (save) write_file_atomically(*save, f2::to_text(f), "--save-matrix");

  const Machine machine(req.machine);
  BmmcRun run = run_bmmc(machine, f, ko, req.engine);
  const MachineParams& m = req.machine;
  const auto cells = std::int64_t{1} << f.bits();
  RunReport r;
  r.n = static_cast<std::uint64_t>(cells);
  r.permutation = what + (f.is_bpc() ? " [BPC]" : " [BMMC]");
  r.distribution = run.distribution;
  r.distribution_inverse = bmmc_distribution(f2::inverse(f), m.w);
  r.stats = std::move(run.stats);
  r.predicted_time_units = run.predicted;
  r.correct = run.correct;
  r.trace = std::move(run.trace);
  const int t = __builtin_ctz(static_cast<unsigned>(m.w));
  r.figure("tiled_for_w", std::int64_t{f2::is_tiled(f.a, t) ? 1 : 0}, "(1: one tiled pass suffices)");
  r.figure("passes", static_cast<std::int64_t>(run.passes.size()), "(kernel launches)");
  for (std::size_t i = 0; i < run.passes.size(); ++i) {
    const PassReport& pass = run.passes[i];
    const std::string tag = "pass" + std::to_string(i + 1) + "_";
    r.figure(tag + "time_units", pass.time_units);
    r.figure(tag + "closed_form", pass.predicted, "(round-synchronous)");
    r.figure(tag + "overlap_bits", std::int64_t{pass.overlap});
    r.figure(tag + "blocks", static_cast<std::int64_t>(pass.blocks));
    r.figure(tag + "threads_per_block", std::int64_t{pass.threads_per_block});
    if (pass.iters > 0) r.figure(tag + "iteration_bits", std::int64_t{pass.iters});
  }
  // [BDS] Sect. 6 reports each permutation as a fraction of a plain copy's bandwidth: the copy is
  // simulated on the same machine and execution, its closed form printed beside it.
  const TimeUnits copy = simulated_copy_time(machine, f.bits(), req.engine.execution);
  r.figure("copy_time_units", static_cast<std::int64_t>(copy), "(simulated: b[i] <- a[i])");
  r.figure("copy_closed_form", closed_form::copy(cells, m.w, m.L), "(2n/w + 2L - 2, round-synchronous)");
  r.figure("copy_over_time", static_cast<double>(copy) / static_cast<double>(r.stats.time_units));
  return r;
}

RunReport run_parm_sort_entry(const RunRequest& req) {
  const ParamValues& p = req.params;
  const int bits = bits_of(p.integer("n"));
  const bool direct = p.flag("direct");
  const BmmcOptions ko = kernel_options(p);
  check_bmmc(req.machine, f2::identity(bits), ko);
  const Machine machine(req.machine);
  ParmSortRun run = run_parm_sort(machine, bits, ko, direct, static_cast<std::uint64_t>(p.integer("seed")), req.engine);
  RunReport r;
  r.n = std::uint64_t{1} << bits;
  r.stats = std::move(run.stats);
  r.correct = run.sorted;
  r.trace = std::move(run.trace);
  r.figure("permutations", direct ? std::string("direct") : std::string(to_string(ko.kernel)));
  r.figure("compare_stages", std::int64_t{run.compare_stages}, "(compare-exchange columns)");
  r.figure("permutation_stages", std::int64_t{run.permutations}, "(BMMC permutations)");
  r.figure("permutation_passes", std::int64_t{run.passes}, "(kernel passes for them)");
  r.figure("kernels_launched", static_cast<std::int64_t>(r.stats.kernels.size()));
  return r;
}

}  // namespace

BitMatrixValue matrix_value(const f2::Bmmc& f, std::string source) {
  BitMatrixValue v;
  for (int i = 0; i < f.bits(); ++i) v.rows.push_back(f.a.row(i));
  v.complement = f.c;
  v.source = std::move(source);
  return v;
}

std::vector<AlgorithmEntry> algorithm_entries() {
  AlgorithmEntry bmmc;
  bmmc.name = "bmmc";
  bmmc.family = "bmmc";
  bmmc.paper = "BDS Sect. 4-5";
  bmmc.description =
      "BMMC permutation y = Ax + c: --matrix F | --random-bpc | --random-bmmc | --bpc NAME, moved by --kernel K";
  bmmc.machine = ModelKind::Hmm;
  bmmc.params = kernel_params();
  bmmc.params.push_back(integer_param("n", "-n", "number of elements (with --matrix: 2^rows, may be left out)", 2,
                                      kMaxN, std::nullopt, IntegerShape::PowerOfTwo));
  bmmc.params.push_back(
      matrix_param("matrix", "--matrix", "BMMC file: n rows of n bits (character j of row i = a_ij), then c",
                   [](const std::string& file) { return matrix_value(f2::read_bmmc_file(file), file); }));
  bmmc.params.push_back(
      flag_param("random_bpc", "--random-bpc", "a random bit permutation and complement, from --seed"));
  bmmc.params.push_back(
      flag_param("random_bmmc", "--random-bmmc", "a random invertible matrix and complement, from --seed"));
  bmmc.params.push_back(choice_param("bpc", "--bpc", "a named BPC ([BDS] Sect. 3)", bpc_names()));
  bmmc.params.push_back(text_param("save_matrix", "--save-matrix", "write the matrix that ran in the --matrix format"));
  bmmc.params.push_back(seed_param());
  bmmc.size = bmmc_size;
  bmmc.run = run_bmmc_entry;

  AlgorithmEntry sort;
  sort.name = "parm-sort";
  sort.family = "bmmc";
  sort.paper = "BDS Sect. 7";
  sort.description = "sorting network built from parm, its permutations compiled to BMMCs (--direct: none)";
  sort.machine = ModelKind::Hmm;
  sort.params = kernel_params();
  ParamSpec n = integer_param("n", "-n", "number of keys", 2, kMaxN, std::nullopt, IntegerShape::PowerOfTwo);
  n.required = true;
  sort.params.push_back(n);
  sort.params.push_back(
      flag_param("direct", "--direct", "no permutations: the compare-exchanges read the cells where they lie"));
  sort.params.push_back(seed_param());
  sort.size = [](const RunRequest& req) {
    return RunSize{.cells = static_cast<std::uint64_t>(req.params.integer("n")), .options = {"n"}};
  };
  sort.run = run_parm_sort_entry;
  return {bmmc, sort};
}

void append_catalogue(std::vector<CatalogueEntry>& out) {
  out.push_back({"kernel", "naive", "thread x writes dst[Ax + c] <- src[x]", "BDS App. A"});
  out.push_back(
      {"kernel", "tile", "one tile per block through shared memory: coalesced reads and writes", "BDS Sect. 4.1"});
  out.push_back({"kernel", "tile-banks", "tile rows rotated: no bank conflicts (the default)", "BDS Sect. 4.2"});
  out.push_back({"kernel", "tile-banks-iters",
                 "2^iters tiles per block (--iters, default min(3, the index bits outside one tile))",
                 "BDS Sect. 4.3"});
  for (const auto& name : bpc_names()) out.push_back({"bpc", name, "named BPC for `run bmmc --bpc`", "BDS Sect. 3"});
  out.push_back({"matrix", "--matrix F", "n lines of n bits (character j of row i = a_ij, j = 0 leftmost), then c",
                 "BDS Sect. 3"});
}

}  // namespace mmsim::bmmc
