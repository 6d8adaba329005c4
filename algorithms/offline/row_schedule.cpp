#include "algorithms/offline/row_schedule.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <stdexcept>

#include "algorithms/offline/edge_colouring.h"
#include "algorithms/offline/no_init_vector.h"
#include "sim/parallel_for.h"

namespace mmsim::offline {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double cpu_seconds_since(std::clock_t c0) { return static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC; }

}  // namespace

namespace {

// Rows [first, end) of a row-wise schedule into `out`, with a colourer and scratch of their own.
void schedule_rows(std::span<const Word> row_perm, std::uint64_t N, int w, std::uint64_t first, std::uint64_t end,
                   RowSchedule& out) {
  const auto W = static_cast<std::uint64_t>(w);
  const std::uint64_t degree = N / W;  // each bank holds N / w cells of a row
  RegularBipartiteColourer colourer;
  std::vector<std::uint32_t> right(N), colour(N), filled(degree);
  std::vector<std::uint8_t> seen(N);
  for (std::uint64_t r = first; r < end; ++r) {
    const Word* P = row_perm.data() + r * N;
    std::fill(seen.begin(), seen.end(), std::uint8_t{0});
    for (std::uint64_t j = 0; j < N; ++j) {
      if (P[j] >= N || seen[P[j]])
        throw std::invalid_argument("row schedule: row " + std::to_string(r) + " is not a permutation of 0..N-1");
      seen[P[j]] = 1;
    }
    // Edge t = bank * degree + q stands for column j = q w + bank: grouped by the left bank.
    for (std::uint64_t bank = 0; bank < W; ++bank)
      for (std::uint64_t q = 0; q < degree; ++q)
        right[bank * degree + q] = static_cast<std::uint32_t>(P[q * W + bank] % W);
    colourer.colour_grouped(static_cast<std::uint32_t>(w), right, colour, 1);
    // Colour class c is a perfect matching of the banks: it becomes warp c (threads c w .. c w + w - 1).
    std::fill(filled.begin(), filled.end(), 0u);
    for (std::uint64_t t = 0; t < N; ++t) {
      const std::uint64_t j = (t % degree) * W + t / degree;
      const std::uint32_t c = colour[t];
      const std::uint64_t slot = r * N + c * W + filled[c]++;
      out.s[slot] = static_cast<Word>(j);
      out.d[slot] = P[j];
    }
  }
}

void check_row_table(std::span<const Word> row_perm, std::uint64_t N, int w) {
  if (w < 1 || N == 0 || N % static_cast<std::uint64_t>(w) != 0 || row_perm.size() != N * N)
    throw std::invalid_argument("row schedule: needs an N x N table with N a positive multiple of w");
}

// Rows go to the pool in several pieces per thread, so that a thread slowed by other work on the
// machine holds up little; the first bad row is reported, as a loop over the rows would. `out`
// comes with its N, w and tables of N^2 entries.
void row_schedule_on(WorkerPool& pool, std::span<const Word> row_perm, RowSchedule& out) {
  const std::uint64_t N = out.N;
  const int w = out.w;
  check_row_table(row_perm, N, w);
  const std::uint64_t pieces = pool.threads() == 1 ? 1 : std::min<std::uint64_t>(N, 8 * std::uint64_t{pool.threads()});
  pool.run(pieces, [&](std::size_t c) { schedule_rows(row_perm, N, w, N * c / pieces, N * (c + 1) / pieces, out); });
}

}  // namespace

RowSchedule row_schedule(std::span<const Word> row_perm, std::uint64_t N, int w, unsigned threads) {
  check_row_table(row_perm, N, w);
  WorkerPool pool(resolve_threads(threads));
  RowSchedule out{N, w, std::vector<Word>(N * N), std::vector<Word>(N * N)};
  row_schedule_on(pool, row_perm, out);
  return out;
}

std::optional<std::vector<Word>> row_schedule_permutation(const RowSchedule& s, std::string& why) {
  const std::uint64_t N = s.N;
  const auto W = static_cast<std::uint64_t>(s.w);
  if (s.w < 1 || N == 0 || N % W != 0 || s.s.size() != N * N || s.d.size() != N * N) {
    why = "tables do not describe an N x N matrix with N a multiple of w";
    return std::nullopt;
  }
  std::vector<Word> out(N * N);
  std::vector<std::uint64_t> seen_s(N, ~std::uint64_t{0}), seen_d(N, ~std::uint64_t{0});
  std::vector<std::uint64_t> bank_s(W, ~std::uint64_t{0}), bank_d(W, ~std::uint64_t{0});
  for (std::uint64_t r = 0; r < N; ++r) {
    for (std::uint64_t j = 0; j < N; ++j) {
      const Word a = s.s[r * N + j], b = s.d[r * N + j];
      // Built only for a message: a string per entry cost 2.3 s of a 3.7 s check at n = 2^24.
      const auto where = [&] { return "row " + std::to_string(r) + ", entry " + std::to_string(j) + ": "; };
      if (a >= N || b >= N) {
        why = where() + "index out of range 0.." + std::to_string(N - 1);
        return std::nullopt;
      }
      if (seen_s[a] == r || seen_d[b] == r) {
        why = where() + "S or D repeats an index (not a permutation)";
        return std::nullopt;
      }
      seen_s[a] = seen_d[b] = r;
      // Warp number r * N + j / w: a stamp that differs for every warp of every row.
      const std::uint64_t warp = r * N + j / W;
      if (bank_s[a % W] == warp || bank_d[b % W] == warp) {
        why = where() + "two threads of one warp hit one bank (not conflict-free)";
        return std::nullopt;
      }
      bank_s[a % W] = bank_d[b % W] = warp;
      out[r * N + a] = b;
    }
  }
  return out;
}

ThreeStepSchedule three_step_schedule(std::span<const Word> p, int w, ScheduleTiming* timing, unsigned threads) {
  const std::uint64_t n = p.size();
  std::uint64_t N = 0;
  while ((N + 1) * (N + 1) <= n) ++N;
  if (N * N != n || w < 1 || N % static_cast<std::uint64_t>(w) != 0)
    throw std::invalid_argument("three-step schedule: n must be N^2 with N a multiple of w");
  threads = resolve_threads(threads);
  WorkerPool pool(threads);
  ThreeStepSchedule out;
  out.n = n;
  out.N = N;
  out.w = w;
  auto t0 = std::chrono::steady_clock::now();
  std::clock_t c0 = std::clock();
  // KNI Sect. 7: edge x joins source row x / N to destination row P(x) / N; the edges come
  // grouped by source row already (x = i N + j), N per row and N per destination row.
  // Written in full by the threads before it is read (no_init_vector.h), as are `right` and `row_perm`.
  NoInitVector<std::uint32_t> colour(n);
  {
    NoInitVector<std::uint32_t> right(n);
    parallel_for(pool, n, [&](std::uint64_t a, std::uint64_t b) {
      for (std::uint64_t x = a; x < b; ++x) right[x] = static_cast<std::uint32_t>(p[x] / N);
    });
    RegularBipartiteColourer colourer;
    colourer.colour_grouped(static_cast<std::uint32_t>(N), right, colour, threads);
  }
  if (timing) {
    timing->threads = threads;
    timing->colouring = seconds_since(t0);
    timing->colouring_cpu = cpu_seconds_since(c0);
  }
  t0 = std::chrono::steady_clock::now();
  c0 = std::clock();
  // The six tables are zeroed at once, one thread each: on one thread this took a quarter of the
  // tables' time at n = 2^24 on 16 threads.
  pool.run(6, [&](std::size_t t) {
    RowSchedule& step = out.step[t / 2];
    (t % 2 == 0 ? step.s : step.d).resize(n);
  });
  for (RowSchedule& step : out.step) {
    step.N = N;
    step.w = w;
  }
  // Step 1: in row x / N, a[x] goes to column c(x): the row-wise permutation is the colouring.
  row_schedule_on(pool, colour, out.step[0]);
  // Step 2, on the transpose: a[x] sits in column c(x), row x / N, and goes to row P(x) / N. The
  // places written are distinct (a colour class meets each row once), so pieces of x run at once.
  NoInitVector<Word> row_perm(n);
  parallel_for(pool, n, [&](std::uint64_t a, std::uint64_t b) {
    for (std::uint64_t x = a; x < b; ++x) row_perm[colour[x] * N + x / N] = static_cast<Word>(p[x] / N);
  });
  row_schedule_on(pool, row_perm, out.step[1]);
  // Step 3: a[x] sits in row P(x) / N, column c(x), and goes to column P(x) mod N (distinct places:
  // a colour class meets each destination row once).
  parallel_for(pool, n, [&](std::uint64_t a, std::uint64_t b) {
    for (std::uint64_t x = a; x < b; ++x) row_perm[(p[x] / N) * N + colour[x]] = static_cast<Word>(p[x] % N);
  });
  row_schedule_on(pool, row_perm, out.step[2]);
  if (timing) {
    timing->tables = seconds_since(t0);
    timing->tables_cpu = cpu_seconds_since(c0);
  }
  return out;
}

std::vector<Word> row_destinations(const RowSchedule& s) {
  std::vector<Word> out(s.s.size());
  for (std::uint64_t x = 0; x < s.s.size(); ++x) out[(x / s.N) * s.N + s.s[x]] = s.d[x];
  return out;
}

std::uint32_t fused_rows_per_block(std::uint64_t N, std::uint32_t element_bytes, std::uint64_t shared_bytes) {
  std::uint32_t rows = 8;
  while (rows > 1 && (std::uint64_t{rows} * N * element_bytes > shared_bytes || N % rows != 0)) rows /= 2;
  return rows;
}

std::vector<Word> fused_gather_table(std::span<const Word> destinations, std::uint64_t N, std::uint32_t R) {
  if (R == 0 || N % R != 0) throw std::invalid_argument("fused gather table: the rows per block must divide N");
  std::vector<Word> q(destinations.size());
  for (std::uint64_t r = 0; r < destinations.size() / N; ++r)
    for (std::uint64_t j = 0; j < N; ++j) {
      const std::uint64_t c = destinations[r * N + j], block = r / R, rr = r % R;
      q[block * N * R + c * R + rr] = static_cast<Word>(j);  // R = 1: r N + c
    }
  return q;
}

std::optional<std::vector<Word>> composed_permutation(const ThreeStepSchedule& s, std::string& why) {
  const std::uint64_t N = s.N;
  if (N * N != s.n) {
    why = "n is not N^2";
    return std::nullopt;
  }
  std::vector<Word> steps[3];
  for (int t = 0; t < 3; ++t) {
    if (s.step[t].N != N || s.step[t].w != s.w) {
      why = "step " + std::to_string(t + 1) + ": its N or w differs from the schedule's";
      return std::nullopt;
    }
    auto r = row_schedule_permutation(s.step[t], why);
    if (!r) {
      why = "step " + std::to_string(t + 1) + ": " + why;
      return std::nullopt;
    }
    steps[t] = std::move(*r);
  }
  std::vector<Word> out(s.n);
  for (std::uint64_t x = 0; x < s.n; ++x) {
    const std::uint64_t row = x / N, col = steps[0][x];  // after step 1
    const std::uint64_t row2 = steps[1][col * N + row];  // after step 2 (column col)
    out[x] = static_cast<Word>(row2 * N + steps[2][row2 * N + col]);
  }
  return out;
}

}  // namespace mmsim::offline
