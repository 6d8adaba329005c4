#include "algorithms/layouts/entries.h"

#include "algorithms/layouts/patterns.h"
#include "algorithms/layouts/transposes.h"
#include "io/input_error.h"
#include "models/layouts/array4_layout.h"
#include "models/layouts/matrix_layout.h"

namespace mmsim::layouts {

namespace {

// One block of w^2 threads: w = 1024 keeps a run to a million threads and two million cells.
constexpr std::int64_t kMaxWidth = 1024;

std::vector<std::string> layout_names() {
  std::vector<std::string> out;
  for (auto k : matrix_layout_kinds()) out.emplace_back(to_string(k));
  return out;
}

RunReport run_entry(Transpose which, const RunRequest& req) {
  const auto w = static_cast<std::uint64_t>(req.machine.w);
  // The transposes move exactly one w x w matrix: -n is accepted only to say so.
  if (const auto n = req.params.integer_if("n"); n && static_cast<std::uint64_t>(*n) != w * w)
    throw InputError("-n: the transposes move one w x w matrix: leave -n out or give n = w^2 = " +
                     std::to_string(w * w) + " (got " + std::to_string(*n) + ")");
  const auto kind = *matrix_layout_from_name(req.params.text("layout"));  // a declared choice
  Draws draws(static_cast<std::uint64_t>(req.params.integer("seed")));
  const MatrixLayout layout(kind, static_cast<std::uint32_t>(w), draws);
  TransposeRun run = run_transpose(which, layout, req.machine.l, req.engine);

  RunReport r;
  r.n = w * w;
  r.permutation = "transpose";
  r.stats = std::move(run.stats);
  r.predicted_time_units = transpose_closed_form(which, kind, req.machine.w, req.machine.l);
  r.correct = run.correct;
  r.trace = std::move(run.trace);
  r.figure("layout", std::string(to_string(kind)));
  if (!layout.shifts().empty()) {
    std::string shifts;
    for (auto s : layout.shifts()) shifts += (shifts.empty() ? "" : " ") + std::to_string(s);
    r.figure("shifts", shifts, "(r_0 .. r_{w-1})");
  }
  r.figure("read_congestion_max", std::int64_t{run.read_max_congestion});
  r.figure("read_congestion_mean", run.read_mean_congestion, "(slots per warp)");
  r.figure("write_congestion_max", std::int64_t{run.write_max_congestion});
  r.figure("write_congestion_mean", run.write_mean_congestion, "(slots per warp)");
  return r;
}

AlgorithmEntry entry_for(Transpose which, const std::string& how) {
  AlgorithmEntry e;
  e.name = to_string(which);
  e.family = "layouts";
  e.paper = "NMI Sect. III, VI";
  e.description = "transpose of a w x w matrix, " + how + " (--layout L)";
  e.machine = ModelKind::Dmm;
  e.params = machine_params(ModelKind::Dmm, 2, kMaxWidth);
  e.params.push_back(
      choice_param("layout", "--layout", "layout of both w x w matrices ([NMI] Sect. I, IV)", layout_names(), "raw"));
  e.params.push_back(
      integer_param("n", "-n", "cells moved: may be left out, else must be w^2", 4, kMaxWidth * kMaxWidth));
  e.params.push_back(seed_param());
  // One w x w matrix (an -n other than w^2 is the run's to refuse).
  e.size = [](const RunRequest& req) {
    const auto w = static_cast<std::uint64_t>(req.machine.w);
    return RunSize{.cells = w * w, .options = {req.params.has("n") ? "n" : "w"}};
  };
  e.run = [which](const RunRequest& req) { return run_entry(which, req); };
  return e;
}

}  // namespace

std::vector<AlgorithmEntry> algorithm_entries() {
  return {entry_for(Transpose::Crsw, "contiguous read and stride write"),
          entry_for(Transpose::Srcw, "stride read and contiguous write"),
          entry_for(Transpose::Drdw, "diagonal read and diagonal write")};
}

void append_catalogue(std::vector<CatalogueEntry>& out) {
  out.push_back({"layout", "raw", "w x w matrix: (i, j) at i w + j", "NMI Sect. I"});
  out.push_back({"layout", "ras", "w x w matrix: (i, j) at i w + (j + r_i) mod w, r_i independent uniform (--seed)",
                 "NMI Sect. I"});
  out.push_back({"layout", "rap", "w x w matrix: (i, j) at i w + (j + r_i) mod w, r a random permutation (--seed)",
                 "NMI Sect. IV"});
  out.push_back({"layout", "pad", "w x w matrix: (i, j) at i (w + 1) + j (row pitch w + 1)", "beyond the papers"});
  out.push_back({"layout", "xor",
                 "w x w matrix: (i, j) at i w + (j XOR (i mod w)); for w not a power of two, column j swaps with "
                 "j XOR (i mod w) only when both are below w",
                 "beyond the papers (CUTLASS/CuTe swizzle)"});
  const std::vector<std::pair<const char*, const char*>> four{
      {"raw", "f = 0"},
      {"ras", "f = independent uniform per (i, j, k)"},
      {"1p", "f = r_k"},
      {"r1p", "f = r_i + r_j + r_k"},
      {"3p", "f = r_i + s_j + t_k, three permutations"},
      {"w2p", "f = r^(i w + j)_k, w^2 permutations"},
      {"1pw2r", "f = s_(i w + j) + r_k, w^2 uniform numbers and one permutation"},
  };
  for (const auto& [name, f] : four)
    out.push_back({"layout", std::string(name) + " (--dims 4)",
                   std::string("w^4 array: a[i][j][k][l] in bank (l + f(i, j, k)) mod w, ") + f, "NMI Sect. VII"});

  out.push_back({"pattern", "contiguous", "one warp reads a row (i, 0 .. w-1), i random", "NMI Sect. III"});
  out.push_back({"pattern", "stride", "one warp reads a column (0 .. w-1, j), j random", "NMI Sect. III"});
  out.push_back({"pattern", "diagonal", "thread t reads (t, (d + t) mod w), d random", "NMI Sect. III"});
  out.push_back({"pattern", "random", "each thread an independent uniform cell; equal addresses merge", "NMI Sect. V"});
  out.push_back({"pattern", "contiguous / stride1 / stride2 / stride3 (--dims 4)",
                 "a[i][j][k][0:w-1] / a[i][j][0:w-1][l] / a[i][0:w-1][k][l] / a[0:w-1][j][k][l], free indices random",
                 "NMI Sect. VII"});
  out.push_back({"pattern", "random (--dims 4)", "w independent uniform cells of the w^4 array; equal ones merge",
                 "NMI Sect. VII"});
  for (auto k : array4_layout_kinds())
    out.push_back(
        {"pattern", std::string("malicious (--dims 4, ") + to_string(k) + ")", malicious_meaning(k), "NMI Sect. VII"});
}

}  // namespace mmsim::layouts
