#include "algorithms/offline/edge_colouring.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>

#include "sim/workers.h"

namespace mmsim::offline {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

void grow(std::vector<std::uint32_t>& v, std::size_t n) {
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
  std::vector<std::uint32_t>& count = scratch_[0].dist;
  grow(count, nodes);
  std::fill_n(count.begin(), nodes, 0u);
  for (const auto x : v) {
    if (x >= nodes) throw std::invalid_argument("edge colouring: right node out of range");
    ++count[x];
  }
  for (std::uint32_t x = 0; x < nodes; ++x)
    if (count[x] != degree)
      throw std::invalid_argument("edge colouring: right node " + std::to_string(x) + " has degree " +
                                  std::to_string(count[x]) + ", not " + std::to_string(degree));
  // Every buffer shared by the threads is sized here, before any thread starts.
  for (int b = 0; b < 2; ++b) {
    grow(v_[b], edges);
    grow(id_[b], edges);
  }
  grow(partner_, edges);
  if (edges >= interleave_threshold_) grow(segment_of_, edges / 2 + 1);
  std::copy(v.begin(), v.end(), v_[0].begin());
  for (std::size_t e = 0; e < edges; ++e) id_[0][e] = static_cast<std::uint32_t>(e);
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
  euler_split(buf, begin, nodes, degree, s);
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

namespace {
constexpr std::uint32_t kVisited = 1u << 31, kFirstHalf = 1u << 30, kIndex = kFirstHalf - 1;
}  // namespace

// Euler partition of an even-degree segment grouped by left node. At every left node the edges are
// paired as (2q, 2q + 1) (each node's run starts at an even offset because the degree is even); at
// every right node they are paired in order of appearance. Each edge then has one partner on each
// side, so the pairs form closed chains alternating left and right pairs, of even length;
// labelling each chain alternately gives every node exactly half of its edges in each half.
void RegularBipartiteColourer::euler_split(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree,
                                           Scratch& s) {
  const std::size_t len = std::size_t{nodes} * degree;
  if (len > kIndex) throw std::invalid_argument("edge colouring: at most 2^30 edges");
  const std::uint32_t* const v = v_[buf].data() + begin;
  const std::uint32_t* const id = id_[buf].data() + begin;
  std::uint32_t* const partner = partner_.data() + begin;
  for (std::size_t t = 0; t < len; ++t) {
    std::uint32_t& p = s.pending[v[t]];
    if (p == kNone) {
      p = static_cast<std::uint32_t>(t);
    } else {
      partner[t] = p;
      partner[p] = static_cast<std::uint32_t>(t);
      p = kNone;  // every right degree is even, so pending ends all kNone again
    }
  }
  // Chains in a segment larger than the caches are walked many at a time, so that their memory
  // accesses overlap; a small segment is walked one chain after the other.
  if (len >= interleave_threshold_)
    label_chains_interleaved(partner, segment_of_.data() + begin / 2, len, s);
  else
    label_chains_single(partner, len);
  // Stable partition: both halves stay grouped by left node, degree / 2 edges each.
  std::uint32_t* const v_out = v_[1 - buf].data() + begin;
  std::uint32_t* const id_out = id_[1 - buf].data() + begin;
  std::size_t zero = 0, one = len / 2;
  for (std::size_t t = 0; t < len; ++t) {
    const std::size_t to = (partner[t] & kFirstHalf) ? zero++ : one++;
    v_out[to] = v[t];
    id_out[to] = id[t];
  }
  if (zero != len / 2) throw std::logic_error("edge colouring: Euler split is unbalanced");
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

// Several walkers at once, each labelling the left pairs it crosses with its own parity. A walker
// that reaches a pair another walk labelled stops there and records how the two parities relate
// (same edge entered: equal; other edge: opposite); a union-find with parity then fixes one
// orientation per walk. The chains have even length, so the relations never contradict.
// segment_of: per left pair of the segment, (walk << 1) | the pair's edge that walk put first.
void RegularBipartiteColourer::label_chains_interleaved(std::uint32_t* partner, std::uint32_t* segment_of,
                                                        std::size_t len, Scratch& s) {
  const std::size_t pairs = len / 2;
  std::fill_n(segment_of, pairs, kNone);
  auto& seg_parent = s.seg_parent;
  auto& seg_parity = s.seg_parity;
  auto& seg_start = s.seg_start;
  seg_parent.clear();
  seg_parity.clear();
  seg_start.clear();
  const auto find = [&](std::uint32_t x, std::uint8_t& parity) {
    std::uint32_t root = x;
    std::uint8_t p = 0;
    while (seg_parent[root] != root) {
      p ^= seg_parity[root];
      root = seg_parent[root];
    }
    std::uint8_t px = p;
    while (seg_parent[x] != root) {  // path compression, keeping parities relative to the root
      const std::uint32_t next = seg_parent[x];
      const auto p_next = static_cast<std::uint8_t>(px ^ seg_parity[x]);
      seg_parent[x] = root;
      seg_parity[x] = px;
      x = next;
      px = p_next;
    }
    parity = p;
    return root;
  };
  // Records flip(a) XOR flip(b) = opposite.
  const auto relate = [&](std::uint32_t a, std::uint32_t b, bool opposite) {
    std::uint8_t pa = 0, pb = 0;
    const std::uint32_t ra = find(a, pa), rb = find(b, pb);
    if (ra == rb) return;  // already related; the chains' even length makes it agree
    seg_parent[ra] = rb;
    seg_parity[ra] = static_cast<std::uint8_t>(pa ^ pb ^ (opposite ? 1 : 0));
  };
  struct Walker {
    std::uint32_t cur = 0, walk = 0;
    bool active = false;
  };
  constexpr int kWalkers = 16;
  Walker walkers[kWalkers];
  std::size_t scan = 0;
  const auto start = [&](Walker& w) {
    while (scan < pairs && segment_of[scan] != kNone) ++scan;
    if (scan == pairs) return false;
    w.walk = static_cast<std::uint32_t>(seg_parent.size());
    seg_parent.push_back(w.walk);
    seg_parity.push_back(0);
    seg_start.push_back(static_cast<std::uint32_t>(scan));
    segment_of[scan] = w.walk << 1;  // edge 2 scan goes first
    w.cur = partner[2 * scan + 1] & kIndex;
    return true;
  };
  int active = 0;
  for (auto& w : walkers) active += (w.active = start(w)) ? 1 : 0;
  while (active > 0) {
    for (auto& w : walkers) {
      if (!w.active) continue;
      const std::uint32_t q = w.cur >> 1;
      const std::uint32_t seen = segment_of[q];
      if (seen == kNone) {
        segment_of[q] = (w.walk << 1) | (w.cur & 1u);
        w.cur = partner[w.cur ^ 1u] & kIndex;
        continue;
      }
      relate(w.walk, seen >> 1, (w.cur & 1u) != (seen & 1u));
      if (!(w.active = start(w))) --active;
    }
  }
  // A walk began by choosing its start pair's orientation, so the right-node link into that pair's
  // first edge 2s was never crossed: its far edge z must end in the other half.
  for (std::uint32_t walk = 0; walk < seg_start.size(); ++walk) {
    const std::uint32_t z = partner[2 * seg_start[walk]] & kIndex;
    const std::uint32_t owner = segment_of[z >> 1];
    relate(walk, owner >> 1, (z & 1u) == (owner & 1u));
  }
  // After a find, a walk's parent is its root and its parity is relative to the root (a root's
  // parity stays 0: each root keeps its own orientation).
  for (std::uint32_t x = 0; x < seg_parent.size(); ++x) {
    std::uint8_t p = 0;
    find(x, p);
  }
  for (std::size_t q = 0; q < pairs; ++q) {
    const std::uint32_t walk = segment_of[q];
    const std::uint32_t first = static_cast<std::uint32_t>(2 * q) | ((walk & 1u) ^ seg_parity[walk >> 1]);
    partner[first] |= kFirstHalf;
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
