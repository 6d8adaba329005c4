// KNI Sect. 7: the scheduled permutation of any P as row-wise, column-wise, row-wise
// permutations (Sect. 7 writes P(i w + j) for the element a[i][j]; the index meant is i sqrt(n) + j).
#include <array>
#include <chrono>
#include <string>

#include "algorithms/closed_forms.h"
#include "algorithms/offline/common.h"
#include "algorithms/offline/kernels.h"
#include "algorithms/offline/offline.h"
#include "algorithms/offline/row_schedule.h"
#include "algorithms/offline/schedule_file.h"
#include "io/input_error.h"

namespace mmsim {

namespace {

void check_scheduled(const MachineParams& m, const PermutationInput& in) {
  offline::check_basics("scheduled", m, in, true);
  offline::square_side("scheduled", in.perm->size(), m.w);
}

// The three steps' tables: read from the run's schedule file, or built here; the seconds either took.
offline::ThreeStepSchedule make_schedule(const PermutationInput& in, int w, unsigned threads,
                                         std::vector<ReportFigure>& figures) {
  if (in.schedule_file) {
    const auto t0 = std::chrono::steady_clock::now();
    offline::ThreeStepSchedule sched = offline::read_schedule_file(*in.schedule_file, in.perm->p, w);
    figures.push_back(
        {"schedule_load_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), "s"});
    return sched;
  }
  offline::ScheduleTiming timing;
  offline::ThreeStepSchedule sched = offline::three_step_schedule(in.perm->p, w, &timing, threads);
  figures.push_back({"schedule_row_colouring_seconds", timing.colouring, "s"});
  figures.push_back({"schedule_tables_seconds", timing.tables, "s"});
  figures.push_back({"schedule_seconds", timing.colouring + timing.tables, "s"});
  return sched;
}

// The input a, the output b and the two arrays between the steps, of n cells each.
std::array<ArrayId, 4> data_arrays(Engine& engine, std::uint64_t n) {
  return {engine.add_array({"a", Space::Global, n}), engine.add_array({"b", Space::Global, n}),
          engine.add_array({"x", Space::Global, n}), engine.add_array({"y", Space::Global, n})};
}

RunReport run_scheduled(const Machine& machine, const PermutationInput& in, const EngineOptions& opt) {
  const auto& mp = machine.params();
  const std::uint64_t n = in.perm->size();
  const std::uint64_t N = offline::square_side("scheduled", n, mp.w);
  const auto w = static_cast<std::uint64_t>(mp.w);
  std::vector<ReportFigure> figures;
  offline::ThreeStepSchedule sched = make_schedule(in, mp.w, opt.threads, figures);

  Engine engine(machine.view(), opt);
  const auto [a, b, x, y] = data_arrays(engine, n);
  ArrayId s[3], d[3];
  for (int t = 0; t < 3; ++t) {
    s[t] = engine.add_array({"s" + std::to_string(t + 1), Space::Global, n, 2});  // uint16 on the GPU
    d[t] = engine.add_array({"d" + std::to_string(t + 1), Space::Global, n, 2});
    std::copy(sched.step[t].s.begin(), sched.step[t].s.end(), engine.global(s[t]).begin());
    std::copy(sched.step[t].d.begin(), sched.step[t].d.end(), engine.global(d[t]).begin());
    sched.step[t] = {};  // the engine holds its own copy now
  }
  const ArrayId alpha = engine.add_array({"alpha", Space::Shared, N});
  const ArrayId beta = engine.add_array({"beta", Space::Shared, N});
  const ArrayId tile = engine.add_array({"tile", Space::Shared, w * w});
  offline::fill_source(engine, a);
  // Step 1: rows; step 2: columns (transpose, rows, transpose); step 3: rows.
  const auto launch = [&](const Kernel& k) {
    engine.launch(k);
    if (in.after_launch) in.after_launch(engine, k);
  };
  launch(offline::row_wise_kernel("row-wise 1", N, a, x, s[0], d[0], alpha, beta));
  launch(offline::transpose_kernel("transpose", N, w, x, y, tile));
  launch(offline::row_wise_kernel("row-wise 2", N, y, x, s[1], d[1], alpha, beta));
  launch(offline::transpose_kernel("transpose", N, w, x, y, tile));
  launch(offline::row_wise_kernel("row-wise 3", N, y, b, s[2], d[2], alpha, beta));

  RunReport run = collect(engine);
  run.correct = holds_permutation(engine.global(b), in.perm->p, opt.threads);
  const auto row_busiest =
      closed_form::busiest_dmm_slots(static_cast<std::int64_t>(N), static_cast<std::int64_t>(N), mp.w, mp.k);
  const auto tiles = static_cast<std::int64_t>((N / w) * (N / w));
  const auto tile_busiest = closed_form::busiest_dmm_slots(tiles, static_cast<std::int64_t>(w * w), mp.w, mp.k);
  run.predicted_time_units =
      closed_form::scheduled(static_cast<std::int64_t>(n), mp.w, mp.L, mp.l, tile_busiest, row_busiest);
  run.figures = std::move(figures);
  return run;
}

// The rows per block of a fused run: the input's, or the GPU kernel's choice for 4-byte cells.
std::uint32_t fused_rows(const PermutationInput& in, std::uint64_t N) {
  return in.block_rows != 0 ? in.block_rows : offline::fused_rows_per_block(N, 4);
}

void check_scheduled_fused(const MachineParams& m, const PermutationInput& in) {
  offline::check_basics("scheduled-fused", m, in, true);
  const std::uint64_t N = offline::square_side("scheduled-fused", in.perm->size(), m.w);
  const std::uint32_t R = fused_rows(in, N);
  if ((R & (R - 1)) != 0 || N % R != 0)
    throw InputError("--rows: needs a power of two dividing sqrt(n) = " + std::to_string(N) + " (got " +
                     std::to_string(R) + ")");
}

RunReport run_scheduled_fused(const Machine& machine, const PermutationInput& in, const EngineOptions& opt) {
  const auto& mp = machine.params();
  const std::uint64_t n = in.perm->size();
  const std::uint64_t N = offline::square_side("scheduled-fused", n, mp.w);
  const std::uint32_t R = fused_rows(in, N);
  std::vector<ReportFigure> figures;
  offline::ThreeStepSchedule sched = make_schedule(in, mp.w, opt.threads, figures);

  Engine engine(machine.view(), opt);
  const auto [a, b, x, y] = data_arrays(engine, n);
  ArrayId q[3];
  for (int t = 0; t < 3; ++t) {
    q[t] = engine.add_array({"q" + std::to_string(t + 1), Space::Global, n, 2});  // uint16 on the GPU
    // Steps 1 and 2 write their blocks transposed; step 3 writes rows in place (its table row by row).
    const std::vector<Word> table =
        offline::fused_gather_table(offline::row_destinations(sched.step[t]), N, t < 2 ? R : 1);
    std::copy(table.begin(), table.end(), engine.global(q[t]).begin());
    sched.step[t] = {};
  }
  const ArrayId alpha = engine.add_array({"alpha", Space::Shared, N * R});
  offline::fill_source(engine, a);
  const auto launch = [&](const Kernel& k) {
    engine.launch(k);
    if (in.after_launch) in.after_launch(engine, k);
  };
  launch(offline::fused_row_kernel("fused rows 1", N, R, true, a, x, q[0], alpha));
  launch(offline::fused_row_kernel("fused columns 2", N, R, true, x, y, q[1], alpha));
  launch(offline::fused_row_kernel("fused rows 3", N, R, false, y, b, q[2], alpha));

  RunReport run = collect(engine);
  run.correct = holds_permutation(engine.global(b), in.perm->p, opt.threads);
  figures.push_back({"rows_per_block", static_cast<double>(R), ""});
  run.figures = std::move(figures);
  return run;
}

}  // namespace

PermutationAlgorithm scheduled_fused_algorithm() {
  return {"scheduled-fused",
          "the scheduled permutation as the GPU's three-pass kernels run it: blocks of --rows rows through shared "
          "memory by gather tables, steps 1 and 2 written transposed (n = N^2, N a multiple of w)",
          "KNI Sect. 7", check_scheduled_fused, run_scheduled_fused};
}

PermutationAlgorithm scheduled_algorithm() {
  return {"scheduled",
          "any permutation in three steps: row-wise, column-wise, row-wise, scheduled offline by Koenig colouring "
          "(n = N^2, N a multiple of w; --schedule FILE from `mmsim schedule`)",
          "KNI Sect. 7", check_scheduled, run_scheduled};
}

}  // namespace mmsim
