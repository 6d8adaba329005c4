// KNI Sect. 7: the scheduled permutation of any P as row-wise, column-wise, row-wise
// permutations (Sect. 7 writes P(i w + j) for the element a[i][j]; the index meant is i sqrt(n) + j).
#include <chrono>

#include "algorithms/closed_forms.h"
#include "algorithms/offline/common.h"
#include "algorithms/offline/kernels.h"
#include "algorithms/offline/offline.h"
#include "algorithms/offline/row_schedule.h"
#include "algorithms/offline/schedule_file.h"

namespace mmsim {

namespace {

void check_scheduled(const MachineParams& m, const PermutationInput& in) {
  offline::check_basics("scheduled", m, in, true);
  offline::square_side("scheduled", in.perm->size(), m.w);
}

RunReport run_scheduled(const Machine& machine, const PermutationInput& in, const EngineOptions& opt) {
  const auto& mp = machine.params();
  const std::uint64_t n = in.perm->size();
  const std::uint64_t N = offline::square_side("scheduled", n, mp.w);
  const auto w = static_cast<std::uint64_t>(mp.w);
  std::vector<ReportFigure> figures;
  offline::ThreeStepSchedule sched;
  if (in.schedule_file) {
    const auto t0 = std::chrono::steady_clock::now();
    sched = offline::read_schedule_file(*in.schedule_file, in.perm->p, mp.w);
    figures.push_back(
        {"schedule_load_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), "s"});
  } else {
    offline::ScheduleTiming timing;
    sched = offline::three_step_schedule(in.perm->p, mp.w, &timing, opt.threads);
    figures.push_back({"schedule_row_colouring_seconds", timing.colouring, "s"});
    figures.push_back({"schedule_tables_seconds", timing.tables, "s"});
    figures.push_back({"schedule_seconds", timing.colouring + timing.tables, "s"});
  }

  Engine engine(machine.view(), opt);
  const ArrayId a = engine.add_array({"a", Space::Global, n});
  const ArrayId b = engine.add_array({"b", Space::Global, n});
  const ArrayId x = engine.add_array({"x", Space::Global, n});
  const ArrayId y = engine.add_array({"y", Space::Global, n});
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

}  // namespace

PermutationAlgorithm scheduled_algorithm() {
  return {"scheduled",
          "any permutation in three steps: row-wise, column-wise, row-wise, scheduled offline by Koenig colouring "
          "(n = N^2, N a multiple of w; --schedule FILE from `mmsim schedule`)",
          "KNI Sect. 7", check_scheduled, run_scheduled};
}

}  // namespace mmsim
