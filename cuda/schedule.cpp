#include "cuda/schedule.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <string>
#include <thread>

#include "cuda/index.h"

namespace mmsim::gpu {

namespace {

// Runs body(i) for i in [0, count) on up to `threads` threads.
template <typename Body>
void parallel_for(std::uint64_t count, unsigned threads, Body body) {
  const unsigned t = static_cast<unsigned>(std::min<std::uint64_t>(std::max(1u, threads), count));
  if (t <= 1) {
    for (std::uint64_t i = 0; i < count; ++i) body(i, 0u);
    return;
  }
  std::atomic<std::uint64_t> next{0};
  std::vector<std::thread> pool;
  for (unsigned w = 0; w < t; ++w)
    pool.emplace_back([&, w] {
      for (std::uint64_t i; (i = next.fetch_add(1)) < count;) body(i, w);
    });
  for (auto& th : pool) th.join();
}

struct Segment {
  std::uint64_t lo = 0, hi = 0;
  std::uint32_t degree = 0, base = 0;
};

struct Scratch {
  std::vector<std::uint32_t> order, pu, pv, tmp, count;
  std::vector<std::uint8_t> side;
};

// Pairs consecutive edges of each vertex: with every vertex of even degree, a counting sort by the
// vertex puts each vertex's edges side by side, and (0,1), (2,3), ... never straddle two vertices.
void pair_at(const std::uint32_t* endpoint, const std::uint32_t* ids, std::uint32_t m, std::uint32_t vertices,
             Scratch& s, std::vector<std::uint32_t>& partner) {
  s.count.assign(vertices + 1, 0);
  for (std::uint32_t k = 0; k < m; ++k) ++s.count[endpoint[ids[k]] + 1];
  for (std::uint32_t x = 0; x < vertices; ++x) s.count[x + 1] += s.count[x];
  for (std::uint32_t k = 0; k < m; ++k) s.order[s.count[endpoint[ids[k]]]++] = k;
  for (std::uint32_t t = 0; t < m; t += 2) {
    partner[s.order[t]] = s.order[t + 1];
    partner[s.order[t + 1]] = s.order[t];
  }
}

// Splits the d-regular subgraph ids[0, m) into two d/2-regular halves, side 0 first. The pairings
// at left and at right vertices form cycles that alternate the two kinds of link; colouring each
// cycle alternately gives every vertex exactly one edge of each side per pair.
void euler_split(const std::uint32_t* u, const std::uint32_t* v, std::uint32_t* ids, std::uint32_t m,
                 std::uint32_t vertices, Scratch& s) {
  s.order.resize(m);
  s.pu.resize(m);
  s.pv.resize(m);
  s.tmp.resize(m);
  s.side.assign(m, 2);
  pair_at(u, ids, m, vertices, s, s.pu);
  pair_at(v, ids, m, vertices, s, s.pv);
  for (std::uint32_t k = 0; k < m; ++k) {
    if (s.side[k] != 2) continue;
    std::uint32_t cur = k;
    std::uint8_t x = 0;
    bool through_right = true;
    while (true) {
      s.side[cur] = x;
      const std::uint32_t next = through_right ? s.pv[cur] : s.pu[cur];
      through_right = !through_right;
      x ^= 1;
      if (next == k) break;
      cur = next;
    }
  }
  std::uint32_t a = 0, b = m / 2;
  for (std::uint32_t k = 0; k < m; ++k) s.tmp[s.side[k] == 0 ? a++ : b++] = ids[k];
  std::copy_n(s.tmp.begin(), m, ids);
}

}  // namespace

std::vector<std::uint32_t> color_regular_bipartite(std::uint32_t vertices, const std::vector<std::uint32_t>& u,
                                                   const std::vector<std::uint32_t>& v, unsigned threads) {
  const std::uint64_t edges = u.size();
  if (v.size() != edges) throw std::invalid_argument("colouring: u and v differ in length");
  if (vertices == 0 || edges % vertices != 0) throw std::invalid_argument("colouring: edges must be a multiple of vertices");
  const std::uint64_t degree = edges / vertices;
  if (!std::has_single_bit(degree)) throw std::invalid_argument("colouring: the degree must be a power of two");
  if (edges > 0xFFFFFFFFull) throw std::invalid_argument("colouring: at most 2^32 - 1 edges");
  std::vector<std::uint32_t> ids(edges);
  for (std::uint64_t e = 0; e < edges; ++e) ids[e] = static_cast<std::uint32_t>(e);
  std::vector<Segment> level{{0, edges, static_cast<std::uint32_t>(degree), 0}};
  std::vector<Scratch> scratch(std::max(1u, threads));
  while (level.front().degree > 1) {
    parallel_for(level.size(), threads, [&](std::uint64_t i, unsigned w) {
      const Segment& g = level[i];
      euler_split(u.data(), v.data(), ids.data() + g.lo, static_cast<std::uint32_t>(g.hi - g.lo), vertices, scratch[w]);
    });
    std::vector<Segment> next;
    next.reserve(level.size() * 2);
    for (const Segment& g : level) {
      const std::uint64_t mid = g.lo + (g.hi - g.lo) / 2;
      next.push_back({g.lo, mid, g.degree / 2, g.base});
      next.push_back({mid, g.hi, g.degree / 2, g.base + g.degree / 2});
    }
    level = std::move(next);
  }
  std::vector<std::uint32_t> colour(edges);
  for (const Segment& g : level)
    for (std::uint64_t k = g.lo; k < g.hi; ++k) colour[ids[k]] = g.base;
  return colour;
}

OfflineSchedule make_offline_schedule(const std::vector<std::uint32_t>& p, std::uint32_t side, unsigned threads) {
  const std::uint64_t n = std::uint64_t{side} * side;
  if (side < kW || !std::has_single_bit(side))
    throw std::invalid_argument("sqrt(n): the GPU schedule needs a power of two of at least 32");
  if (p.size() != n) throw std::invalid_argument("schedule: the permutation must have sqrt(n)^2 cells");
  // Left vertex: the row a cell starts in; right vertex: the row it must end in (papers/000 Sect. 7).
  std::vector<std::uint32_t> u(n), v(n);
  std::vector<std::uint8_t> seen(n, 0);
  for (std::uint64_t x = 0; x < n; ++x) {
    if (p[x] >= n || seen[p[x]]) throw std::invalid_argument("schedule: p is not a permutation");
    seen[p[x]] = 1;
    u[x] = static_cast<std::uint32_t>(x / side);
    v[x] = p[x] / side;
  }
  seen = {};
  const std::vector<std::uint32_t> colour = color_regular_bipartite(side, u, v, threads);
  OfflineSchedule s;
  s.side = side;
  for (auto& st : s.step) st.assign(n, 0);
  for (std::uint64_t x = 0; x < n; ++x) {
    const std::uint32_t i = u[x], c = colour[x], r = v[x], j = p[x] % side;
    s.step[0][x] = c;                           // step 1: within row i, to the column of its colour
    s.step[1][std::uint64_t{c} * side + i] = r;  // step 2: within column c, to its destination row
    s.step[2][std::uint64_t{r} * side + c] = j;  // step 3: within row r, to its destination column
  }
  return s;
}

BankSchedule bank_schedule(const std::vector<std::uint32_t>& step, std::uint32_t side, unsigned threads) {
  if (side < kW || side % kW != 0 || !std::has_single_bit(side) || side > 65536)
    throw std::invalid_argument("sqrt(n): the bank schedule needs a power of two between 32 and 65536");
  const std::uint64_t n = std::uint64_t{side} * side;
  BankSchedule out;
  out.s.resize(n);
  out.d.resize(n);
  const std::uint32_t colours = side / kW;
  parallel_for(side, threads, [&](std::uint64_t row, unsigned) {
    // Banks of the source array alpha (left) and of the destination array beta (right): the edge of
    // cell j joins bank j mod w and bank P(j) mod w (papers/000 Sect. 6).
    std::vector<std::uint32_t> u(side), v(side);
    const std::uint32_t* dst = step.data() + row * side;
    for (std::uint32_t j = 0; j < side; ++j) {
      u[j] = j % kW;
      v[j] = dst[j] % kW;
    }
    const std::vector<std::uint32_t> colour =
        colours == 1 ? std::vector<std::uint32_t>(side, 0) : color_regular_bipartite(kW, u, v, 1);
    for (std::uint32_t j = 0; j < side; ++j) {
      const std::uint64_t slot = row * side + std::uint64_t{colour[j]} * kW + u[j];
      out.s[slot] = static_cast<std::uint16_t>(j);
      out.d[slot] = static_cast<std::uint16_t>(dst[j]);
    }
  });
  return out;
}

std::vector<std::uint16_t> gather_schedule(const std::vector<std::uint32_t>& step, std::uint32_t side,
                                           std::uint32_t rows_per_block) {
  const std::uint64_t n = std::uint64_t{side} * side;
  if (rows_per_block == 0 || side % rows_per_block != 0) throw std::invalid_argument("rows per block must divide sqrt(n)");
  std::vector<std::uint16_t> q(n);
  for (std::uint64_t i = 0; i < side; ++i)
    for (std::uint32_t j = 0; j < side; ++j)
      q[fused_order(i, step[i * side + j], side, rows_per_block)] = static_cast<std::uint16_t>(j);
  return q;
}

std::vector<std::uint32_t> step_permutation(const std::vector<std::uint32_t>& step, std::uint32_t side,
                                            bool transposed) {
  const std::uint64_t n = std::uint64_t{side} * side;
  std::vector<std::uint32_t> p(n);
  for (std::uint64_t i = 0; i < side; ++i)
    for (std::uint64_t j = 0; j < side; ++j) {
      const std::uint64_t to = step[i * side + j];
      // Transposed: row i of the step is column i of the matrix.
      p[transposed ? j * side + i : i * side + j] = static_cast<std::uint32_t>(transposed ? to * side + i : i * side + to);
    }
  return p;
}

}  // namespace mmsim::gpu
