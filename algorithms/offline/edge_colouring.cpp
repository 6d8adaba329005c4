#include "algorithms/offline/edge_colouring.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/workers.h"

namespace mmsim::offline {

namespace {

template <typename Vector>
void grow(Vector& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
}

}  // namespace

std::vector<std::uint32_t> RegularBipartiteColourer::colour(std::uint32_t nodes, std::span<const std::uint32_t> u,
                                                            std::span<const std::uint32_t> v) {
  if (u.size() != v.size()) throw std::invalid_argument("edge colouring: u and v differ in length");
  if (nodes == 0 || u.empty() || u.size() % nodes != 0)
    throw std::invalid_argument("edge colouring: the edge count must be a positive multiple of the node count");
  const std::size_t edges = u.size();
  const auto degree = static_cast<std::uint32_t>(edges / nodes);
  // Group the edges by left node (a counting sort), remembering where each came from.
  std::vector<std::uint32_t> start(nodes + 1, 0);
  for (const auto x : u) {
    if (x >= nodes) throw std::invalid_argument("edge colouring: left node out of range");
    ++start[x + 1];
  }
  for (std::uint32_t x = 0; x < nodes; ++x) {
    if (start[x + 1] != degree)
      throw std::invalid_argument("edge colouring: left node " + std::to_string(x) + " has degree " +
                                  std::to_string(start[x + 1]) + ", not " + std::to_string(degree));
    start[x + 1] += start[x];
  }
  std::vector<std::uint32_t> grouped_v(edges), where(edges);
  for (std::size_t e = 0; e < edges; ++e) {
    const std::uint32_t pos = start[u[e]]++;
    grouped_v[pos] = v[e];
    where[pos] = static_cast<std::uint32_t>(e);
  }
  std::vector<std::uint32_t> grouped_colour(edges);
  colour_grouped(nodes, grouped_v, grouped_colour);
  std::vector<std::uint32_t> out(edges);
  for (std::size_t p = 0; p < edges; ++p) out[where[p]] = grouped_colour[p];
  return out;
}

void RegularBipartiteColourer::colour_grouped(std::uint32_t nodes, std::span<const std::uint32_t> v,
                                              std::span<std::uint32_t> colour, unsigned threads) {
  const std::size_t edges = v.size();
  if (nodes == 0 || edges == 0 || edges % nodes != 0)
    throw std::invalid_argument("edge colouring: the edge count must be a positive multiple of the node count");
  if (edges > kNone) throw std::invalid_argument("edge colouring: at most 2^32 - 1 edges");
  if (colour.size() != edges) throw std::invalid_argument("edge colouring: colour span of the wrong length");
  const auto degree = static_cast<std::uint32_t>(edges / nodes);
  threads = resolve_threads(threads);
  if (scratch_.size() < threads) scratch_.resize(threads);
  // A large graph on several threads is counted and copied in pieces.
  std::optional<WorkerPool> pool;
  if (threads > 1 && edges >= parallel_threshold_) pool.emplace(threads);
  const std::size_t pieces = pool ? threads : 1;
  const auto in_pieces = [&](const auto& body) {
    const auto piece = [&](std::size_t i) { body(i, edges * i / pieces, edges * (i + 1) / pieces); };
    if (pool)
      pool->run(pieces, piece);
    else
      piece(0);
  };
  in_pieces([&](std::size_t i, std::size_t from, std::size_t to) {
    std::vector<std::uint32_t>& count = scratch_[i].dist;
    grow(count, nodes);
    std::fill_n(count.begin(), nodes, 0u);
    for (std::size_t e = from; e < to; ++e) {
      if (v[e] >= nodes) throw std::invalid_argument("edge colouring: right node out of range");
      ++count[v[e]];
    }
  });
  std::vector<std::uint32_t>& count = scratch_[0].dist;
  for (std::size_t i = 1; i < pieces; ++i)
    for (std::uint32_t x = 0; x < nodes; ++x) count[x] += scratch_[i].dist[x];
  for (std::uint32_t x = 0; x < nodes; ++x)
    if (count[x] != degree)
      throw std::invalid_argument("edge colouring: right node " + std::to_string(x) + " has degree " +
                                  std::to_string(count[x]) + ", not " + std::to_string(degree));
  // Every buffer shared by the threads is sized here, before any thread starts; their pages are
  // first written by the threads that use them.
  for (int b = 0; b < 2; ++b) {
    grow(v_[b], edges);
    grow(id_[b], edges);
  }
  grow(partner_, edges);
  if (edges >= interleave_threshold_ || threads > 1) grow(segment_of_, edges / 2 + 1);
  in_pieces([&](std::size_t, std::size_t from, std::size_t to) {
    std::copy(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(to),
              v_[0].begin() + static_cast<std::ptrdiff_t>(from));
    for (std::size_t e = from; e < to; ++e) id_[0][e] = static_cast<std::uint32_t>(e);
  });
  pool.reset();
  for (unsigned t = 0; t < threads; ++t) scratch_[t].pending.assign(nodes, kNone);
  colour_segment(0, 0, nodes, degree, 0, colour, threads, 0);
}

void RegularBipartiteColourer::colour_segment(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree,
                                              std::uint32_t first, std::span<std::uint32_t> colour, unsigned threads,
                                              unsigned slot) {
  if (degree == 1) {
    for (std::size_t t = 0; t < nodes; ++t) colour[id_[buf][begin + t]] = first;
    return;
  }
  Scratch& s = scratch_[slot];
  if (degree % 2 == 1) {
    // An odd degree: one perfect matching becomes the last colour; the rest is (degree - 1)-regular.
    peel_matching(buf, begin, nodes, degree, first + degree - 1, colour, s);
    --degree;
  }
  // The halves land in the other buffer at the same offsets: segments being disjoint, the
  // depth-first recursion never overwrites edges it still needs, and two threads never touch the
  // same edges.
  const std::size_t len = std::size_t{nodes} * degree;
  euler_split(buf, begin, nodes, degree, threads > 1 && len >= parallel_threshold_ ? threads : 1, slot);
  const std::uint32_t half = degree / 2;
  const std::size_t second = begin + std::size_t{nodes} * half;
  if (threads <= 1 || std::size_t{nodes} * half < parallel_threshold_) {
    colour_segment(1 - buf, begin, nodes, half, first, colour, 1, slot);
    colour_segment(1 - buf, second, nodes, half, first + half, colour, 1, slot);
    return;
  }
  const unsigned mine = (threads + 1) / 2;
  std::exception_ptr error;
  std::thread other([&] {
    try {
      colour_segment(1 - buf, second, nodes, half, first + half, colour, threads - mine, slot + mine);
    } catch (...) {
      error = std::current_exception();
    }
  });
  try {
    colour_segment(1 - buf, begin, nodes, half, first, colour, mine, slot);
  } catch (...) {
    other.join();
    throw;
  }
  other.join();
  if (error) std::rethrow_exception(error);
}

// Euler partition of an even-degree segment grouped by left node. At every left node the edges are
// paired as (2q, 2q + 1) (each node's run starts at an even offset because the degree is even); at
// every right node they are paired in order of appearance. Each edge then has one partner on each
// side, so the pairs form closed chains alternating left and right pairs, of even length;
// labelling each chain alternately gives every node exactly half of its edges in each half.
void RegularBipartiteColourer::euler_split(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree,
                                           unsigned threads, unsigned slot) {
  const std::size_t len = std::size_t{nodes} * degree;
  if (len > kIndex) throw std::invalid_argument("edge colouring: at most 2^30 edges");
  const std::uint32_t* const v = v_[buf].data() + begin;
  const std::uint32_t* const id = id_[buf].data() + begin;
  std::uint32_t* const partner = partner_.data() + begin;
  std::optional<WorkerPool> pool;
  if (threads > 1) pool.emplace(threads);
  WorkerPool* const workers = pool ? &*pool : nullptr;
  pair_at_right_nodes(v, partner, len, nodes, workers, slot);
  // Chains in a segment larger than the caches, or on several threads, are walked many at a time,
  // so that their memory accesses overlap; a small segment is walked one chain after the other.
  // Both mark the same edges.
  if (workers || len >= interleave_threshold_)
    label_chains_interleaved(partner, segment_of_.data() + begin / 2, len, workers, slot);
  else
    label_chains_single(partner, len);
  // Stable partition: left pair q has one edge in each half, so its first-half edge is the q-th of
  // the first half and the other the q-th of the second; both halves stay grouped by left node,
  // degree / 2 edges each.
  std::uint32_t* const v_out = v_[1 - buf].data() + begin;
  std::uint32_t* const id_out = id_[1 - buf].data() + begin;
  const std::size_t pairs = len / 2;
  const auto move_pairs = [&](std::size_t from, std::size_t to) {
    for (std::size_t q = from; q < to; ++q) {
      const std::size_t first = 2 * q + ((partner[2 * q] & kFirstHalf) ? 0 : 1);
      v_out[q] = v[first];
      id_out[q] = id[first];
      v_out[pairs + q] = v[first ^ 1];
      id_out[pairs + q] = id[first ^ 1];
    }
  };
  if (!workers) {
    move_pairs(0, pairs);
    return;
  }
  const std::size_t pieces = workers->threads();
  workers->run(pieces, [&](std::size_t i) { move_pairs(pairs * i / pieces, pairs * (i + 1) / pieces); });
}

// Right node x's edges in order of appearance are paired (1st, 2nd), (3rd, 4th), ... On several
// threads the edge range is cut into one piece per thread: a first pass counts each node's edges
// per piece modulo 2, so that a piece knows whether its first edge at x pairs with an edge of an
// earlier piece; the pieces then pair what they can on their own, and a last pass joins each
// node's leftover edge of one piece with its first edge in a later piece.
void RegularBipartiteColourer::pair_at_right_nodes(const std::uint32_t* v, std::uint32_t* partner, std::size_t len,
                                                   std::uint32_t nodes, WorkerPool* pool, unsigned slot) {
  const auto pair_range = [&](std::size_t from, std::size_t to, std::uint32_t* pending, std::uint32_t* first) {
    for (std::size_t t = from; t < to; ++t) {
      std::uint32_t& p = pending[v[t]];
      if (p == kNone) {
        p = static_cast<std::uint32_t>(t);
      } else if (p == kCarry) {
        first[v[t]] = static_cast<std::uint32_t>(t);  // its partner is in an earlier piece
        p = kNone;
      } else {
        partner[t] = p;
        partner[p] = static_cast<std::uint32_t>(t);
        p = kNone;
      }
    }
  };
  if (!pool) {
    // Every right degree is even, so pending ends all kNone again.
    pair_range(0, len, scratch_[slot].pending.data(), nullptr);
    return;
  }
  const std::size_t pieces = pool->threads();
  const auto piece = [&](std::size_t i) { return len * i / pieces; };
  pool->run(pieces, [&](std::size_t i) {
    auto& parity = scratch_[slot + i].parity_before;
    parity.assign(nodes, 0);
    for (std::size_t t = piece(i); t < piece(i + 1); ++t) parity[v[t]] ^= 1;
  });
  for (std::uint32_t x = 0; x < nodes; ++x) {
    std::uint8_t before = 0;
    for (std::size_t i = 0; i < pieces; ++i) {
      std::uint8_t& p = scratch_[slot + i].parity_before[x];
      const std::uint8_t own = p;
      p = before;
      before ^= own;
    }
  }
  pool->run(pieces, [&](std::size_t i) {
    Scratch& s = scratch_[slot + i];
    s.first.assign(nodes, kNone);
    for (std::uint32_t x = 0; x < nodes; ++x)
      if (s.parity_before[x]) s.pending[x] = kCarry;
    pair_range(piece(i), piece(i + 1), s.pending.data(), s.first.data());
  });
  for (std::uint32_t x = 0; x < nodes; ++x) {
    std::uint32_t carry = kNone;
    for (std::size_t i = 0; i < pieces; ++i) {
      Scratch& s = scratch_[slot + i];
      if (s.first[x] != kNone) {
        if (carry == kNone) throw std::logic_error("edge colouring: pairing pieces do not join");
        partner[s.first[x]] = carry;
        partner[carry] = s.first[x];
        carry = kNone;
      }
      if (s.pending[x] != kNone && s.pending[x] != kCarry) carry = s.pending[x];
      s.pending[x] = kNone;
    }
    if (carry != kNone) throw std::logic_error("edge colouring: a right node of odd degree");
  }
}

// One chain at a time. The visit and half marks live in the two top bits of the partner word:
// edge e and its left partner e ^ 1 share a cache line, so a step costs one dependent access.
void RegularBipartiteColourer::label_chains_single(std::uint32_t* partner, std::size_t len) {
  for (std::size_t t = 0; t < len; t += 2) {
    if (partner[t] & kVisited) continue;
    auto cur = static_cast<std::uint32_t>(t);
    do {
      partner[cur] |= kVisited | kFirstHalf;  // cur goes to the first half, its left partner to the second
      const std::uint32_t left_partner = cur ^ 1u;
      const std::uint32_t next = partner[left_partner] & kIndex;
      partner[left_partner] |= kVisited;
      cur = next;
    } while (cur != t);
  }
}

// Hopcroft-Karp on the segment (left node x owns edges [x degree, (x + 1) degree)); the matched
// edges get `colour_of_matching` and leave the segment, which stays grouped by left node.
void RegularBipartiteColourer::peel_matching(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree,
                                             std::uint32_t colour_of_matching, std::span<std::uint32_t> colour,
                                             Scratch& s) {
  const std::size_t len = std::size_t{nodes} * degree;
  const std::uint32_t* const v = v_[buf].data() + begin;
  auto& match_left = s.match_left;
  auto& match_right = s.match_right;
  auto& dist = s.dist;
  auto& queue = s.queue;
  auto& cursor = s.cursor;
  auto& stack = s.stack;
  match_left.assign(nodes, kNone);   // left node -> local edge
  match_right.assign(nodes, kNone);  // right node -> left node
  grow(dist, nodes);
  grow(queue, nodes);
  grow(cursor, nodes);
  stack.clear();
  std::uint32_t matched = 0;
  for (std::uint32_t x = 0; x < nodes; ++x)
    for (std::uint32_t e = x * degree; e < (x + 1) * degree; ++e)
      if (match_right[v[e]] == kNone) {
        match_left[x] = e;
        match_right[v[e]] = x;
        ++matched;
        break;
      }
  constexpr std::uint32_t kInf = kNone;
  while (matched < nodes) {
    // Breadth-first layers from the free left nodes.
    std::size_t head = 0, tail = 0;
    for (std::uint32_t x = 0; x < nodes; ++x) {
      dist[x] = match_left[x] == kNone ? 0 : kInf;
      if (dist[x] == 0) queue[tail++] = x;
    }
    bool found = false;
    while (head < tail) {
      const std::uint32_t x = queue[head++];
      for (std::uint32_t e = x * degree; e < (x + 1) * degree; ++e) {
        const std::uint32_t y = match_right[v[e]];
        if (y == kNone)
          found = true;
        else if (dist[y] == kInf) {
          dist[y] = dist[x] + 1;
          queue[tail++] = y;
        }
      }
    }
    if (!found) throw std::logic_error("edge colouring: no perfect matching (the graph is not regular)");
    // Depth-first augmenting paths along the layers, without recursion.
    for (std::uint32_t x = 0; x < nodes; ++x) cursor[x] = x * degree;
    for (std::uint32_t root = 0; root < nodes; ++root) {
      if (match_left[root] != kNone || dist[root] != 0) continue;
      stack.assign(1, root);
      while (!stack.empty()) {
        const std::uint32_t x = stack.back();
        if (cursor[x] == (x + 1) * degree) {
          dist[x] = kInf;  // dead end for this phase
          stack.pop_back();
          if (!stack.empty()) ++cursor[stack.back()];
          continue;
        }
        const std::uint32_t e = cursor[x];
        const std::uint32_t y = match_right[v[e]];
        if (y == kNone) {
          for (const std::uint32_t z : stack) {
            match_left[z] = cursor[z];
            match_right[v[cursor[z]]] = z;
          }
          ++matched;
          break;
        }
        if (dist[y] != kInf && dist[y] == dist[x] + 1)
          stack.push_back(y);
        else
          ++cursor[x];
      }
    }
  }
  if (s.side.size() < len) s.side.resize(len);
  std::uint8_t* const side = s.side.data();
  std::fill_n(side, len, std::uint8_t{0});
  for (std::uint32_t x = 0; x < nodes; ++x) {
    side[match_left[x]] = 1;
    colour[id_[buf][begin + match_left[x]]] = colour_of_matching;
  }
  std::size_t out = begin;
  for (std::size_t t = 0; t < len; ++t)
    if (side[t] == 0) {
      v_[buf][out] = v_[buf][begin + t];
      id_[buf][out] = id_[buf][begin + t];
      ++out;
    }
}

bool is_proper_colouring(std::uint32_t nodes, std::span<const std::uint32_t> u, std::span<const std::uint32_t> v,
                         std::span<const std::uint32_t> colour, std::uint32_t colours) {
  if (u.size() != v.size() || colour.size() != u.size()) return false;
  std::vector<std::uint8_t> left(std::size_t{colours} * nodes, 0), right(std::size_t{colours} * nodes, 0);
  for (std::size_t e = 0; e < u.size(); ++e) {
    if (colour[e] >= colours || u[e] >= nodes || v[e] >= nodes) return false;
    auto& l = left[std::size_t{colour[e]} * nodes + u[e]];
    auto& r = right[std::size_t{colour[e]} * nodes + v[e]];
    if (l || r) return false;
    l = r = 1;
  }
  return true;
}

}  // namespace mmsim::offline
