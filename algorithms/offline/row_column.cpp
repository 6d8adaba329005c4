// KNI Sect. 6: row-wise permutation (one block per row, S/D tables from a Koenig colouring
// of each row's bank multigraph) and column-wise permutation (transpose, row-wise, transpose).
#include <algorithm>
#include <chrono>
#include <numeric>

#include "algorithms/closed_forms.h"
#include "algorithms/offline/common.h"
#include "algorithms/offline/kernels.h"
#include "algorithms/offline/offline.h"
#include "algorithms/offline/row_schedule.h"
#include "io/quote.h"

namespace mmsim {

namespace {

// The per-line permutation a row-wise (or column-wise) run performs, read from P.
struct LinePermutation {
  std::vector<Word> line;       // line[r N + j] = new position of the element at position j of line r
  std::vector<Word> effective;  // the whole permutation of 0..n-1 that this moves
};

// How `--perm` is read for row-/column-wise: a P that keeps every row (column) is performed as
// given; `random` stands for a random permutation of every row (column): each line's elements are
// ranked by their destinations under the seeded random P, which makes every line's permutation
// uniform and independent. Any other P is refused.
LinePermutation line_permutation(const std::string& algorithm, const Permutation& P, std::uint64_t N, bool columns) {
  const std::uint64_t n = P.size();
  LinePermutation out{std::vector<Word>(n), std::vector<Word>(n)};
  // Element at (line r, position j) of the matrix or of its transpose, as an index of a.
  const auto at = [&](std::uint64_t r, std::uint64_t j) { return columns ? j * N + r : r * N + j; };
  bool keeps = true;
  for (std::uint64_t x = 0; x < n && keeps; ++x) keeps = columns ? P.p[x] % N == x % N : P.p[x] / N == x / N;
  if (keeps) {
    for (std::uint64_t r = 0; r < N; ++r)
      for (std::uint64_t j = 0; j < N; ++j) {
        const Word dest = P.p[at(r, j)];
        out.line[r * N + j] = static_cast<Word>(columns ? dest / N : dest % N);
      }
    out.effective = P.p;
    return out;
  }
  if (P.name != "random")
    throw InputError(std::string("--perm: ") + algorithm + " needs a permutation that keeps every " +
                     (columns ? "column" : "row") + " (or --perm random for a random one per " +
                     (columns ? "column" : "row") + "); " + quote(P.name) + " does not");
  std::vector<std::uint32_t> order(N);
  for (std::uint64_t r = 0; r < N; ++r) {
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(),
              [&](std::uint32_t x, std::uint32_t y) { return P.p[at(r, x)] < P.p[at(r, y)]; });
    for (std::uint64_t rank = 0; rank < N; ++rank) {
      const std::uint64_t j = order[rank];
      out.line[r * N + j] = static_cast<Word>(rank);
      out.effective[at(r, j)] = static_cast<Word>(at(r, rank));
    }
  }
  return out;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void check_line(const std::string& algorithm, const MachineParams& m, const PermutationInput& in, bool columns) {
  offline::check_basics(algorithm, m, in, false);
  const std::uint64_t N = offline::square_side(algorithm, in.perm->size(), m.w);
  (void)line_permutation(algorithm, *in.perm, N, columns);
}

RunReport run_line(const std::string& algorithm, const Machine& machine, const PermutationInput& in,
                   const EngineOptions& opt, bool columns) {
  const auto& mp = machine.params();
  const std::uint64_t n = in.perm->size();
  const std::uint64_t N = offline::square_side(algorithm, n, mp.w);
  const auto w = static_cast<std::uint64_t>(mp.w);
  const LinePermutation lines = line_permutation(algorithm, *in.perm, N, columns);
  const auto t0 = std::chrono::steady_clock::now();
  offline::RowSchedule sched = offline::row_schedule(lines.line, N, mp.w, opt.threads);
  const double schedule_seconds = seconds_since(t0);

  Engine engine(machine.view(), opt);
  const ArrayId a = engine.add_array({"a", Space::Global, n});
  const ArrayId b = engine.add_array({"b", Space::Global, n});
  const ArrayId s = engine.add_array({"s", Space::Global, n, 2});  // uint16 on the GPU
  const ArrayId d = engine.add_array({"d", Space::Global, n, 2});
  const ArrayId alpha = engine.add_array({"alpha", Space::Shared, N});
  const ArrayId beta = engine.add_array({"beta", Space::Shared, N});
  offline::fill_source(engine, a);
  std::copy(sched.s.begin(), sched.s.end(), engine.global(s).begin());
  std::copy(sched.d.begin(), sched.d.end(), engine.global(d).begin());
  const auto row_busiest =
      closed_form::busiest_dmm_slots(static_cast<std::int64_t>(N), static_cast<std::int64_t>(N), mp.w, mp.k);
  RunReport run;
  if (!columns) {
    engine.launch(offline::row_wise_kernel("row-wise", N, a, b, s, d, alpha, beta));
    run = collect(engine);
    run.predicted_time_units = closed_form::row_wise(static_cast<std::int64_t>(n), mp.w, mp.L, mp.l, row_busiest);
  } else {
    const ArrayId x = engine.add_array({"x", Space::Global, n});
    const ArrayId y = engine.add_array({"y", Space::Global, n});
    const ArrayId tile = engine.add_array({"tile", Space::Shared, w * w});
    engine.launch(offline::transpose_kernel("transpose", N, w, a, x, tile));
    engine.launch(offline::row_wise_kernel("row-wise", N, x, y, s, d, alpha, beta));
    engine.launch(offline::transpose_kernel("transpose", N, w, y, b, tile));
    run = collect(engine);
    const auto tiles = static_cast<std::int64_t>((N / w) * (N / w));
    const auto tile_busiest = closed_form::busiest_dmm_slots(tiles, static_cast<std::int64_t>(w * w), mp.w, mp.k);
    run.predicted_time_units =
        closed_form::column_wise(static_cast<std::int64_t>(n), mp.w, mp.L, mp.l, tile_busiest, row_busiest);
  }
  run.correct = holds_permutation(engine.global(b), lines.effective, opt.threads);
  if (lines.effective != in.perm->p) {
    // D_w of what moved: the derived per-row (or per-column) permutation.
    run.permutation = in.perm->name + " (each line permuted as derived from it)";
    run.distribution = distribution(lines.effective, w, opt.threads);
    run.distribution_inverse = distribution(inverse(lines.effective, opt.threads), w, opt.threads);
  }
  run.figure("schedule_bank_colouring_seconds", schedule_seconds, "s");
  return run;
}

}  // namespace

PermutationAlgorithm row_wise_algorithm() {
  return {"row-wise",
          "permutes each row of the sqrt(n) x sqrt(n) matrix, conflict-free by Koenig colouring (P must keep every "
          "row; --perm random: a random permutation of every row)",
          "KNI Sect. 6",
          [](const MachineParams& m, const PermutationInput& in) { check_line("row-wise", m, in, false); },
          [](const Machine& m, const PermutationInput& in, const EngineOptions& o) {
            return run_line("row-wise", m, in, o, false);
          }};
}

PermutationAlgorithm column_wise_algorithm() {
  return {"column-wise",
          "permutes each column: transpose, row-wise, transpose (P must keep every column; --perm random: a random "
          "permutation of every column)",
          "KNI Sect. 6",
          [](const MachineParams& m, const PermutationInput& in) { check_line("column-wise", m, in, true); },
          [](const Machine& m, const PermutationInput& in, const EngineOptions& o) {
            return run_line("column-wise", m, in, o, true);
          }};
}

}  // namespace mmsim
