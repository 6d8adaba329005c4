// The Euler split's chain labelling by many walks at once, on one thread or several: which edge of
// each left pair goes to the first half (RegularBipartiteColourer::label_chains_interleaved).
//
// A walk starts on an unlabelled left pair, puts its even edge first, and follows the chain: from
// the edge it entered a pair by, to the pair's other edge, to that edge's partner at its right node,
// which it enters next pair by and puts first. It labels each pair it reaches with its own id and
// stops at the first pair some walk labelled before, recording how the two walks' orientations
// relate (same edge put first: equal; else opposite). A union-find with parity then joins the walks
// of one chain; the chains have even length, so the relations never contradict. Each chain is
// finally oriented so that its lowest left pair puts its even edge first: the orientation the
// single walk (label_chains_single) gives, whichever walks met which pairs in whatever order, so
// the marks are the same for every number of threads.
#include <algorithm>
#include <atomic>
#include <stdexcept>

#include "algorithms/offline/edge_colouring.h"
#include "sim/workers.h"

namespace mmsim::offline {

namespace {

// Union-find with parity over walks 0 .. parent.size() - 1: parity[x] is x's orientation relative
// to its parent's.
struct ParityUnionFind {
  std::vector<std::uint32_t>& parent;
  std::vector<std::uint8_t>& parity;

  std::uint32_t find(std::uint32_t x, std::uint8_t& to_root) {
    std::uint32_t root = x;
    std::uint8_t p = 0;
    while (parent[root] != root) {
      p ^= parity[root];
      root = parent[root];
    }
    std::uint8_t px = p;
    while (parent[x] != root) {  // path compression, keeping parities relative to the root
      const std::uint32_t next = parent[x];
      const auto p_next = static_cast<std::uint8_t>(px ^ parity[x]);
      parent[x] = root;
      parity[x] = px;
      x = next;
      px = p_next;
    }
    to_root = p;
    return root;
  }

  // Records orientation(a) XOR orientation(b) = opposite.
  void relate(std::uint32_t a, std::uint32_t b, bool opposite) {
    std::uint8_t pa = 0, pb = 0;
    const std::uint32_t ra = find(a, pa), rb = find(b, pb);
    if (ra == rb) return;  // already related; the chains' even length makes it agree
    parent[ra] = rb;
    parity[ra] = static_cast<std::uint8_t>(pa ^ pb ^ (opposite ? 1 : 0));
  }
};

// Claims a pair's label word when nobody has; returns the word found otherwise (kNone: claimed).
// `shared`: other threads walk the same segment, so the claim is an atomic compare-and-swap.
std::uint32_t claim(std::uint32_t& word, std::uint32_t label, std::uint32_t none, bool shared) {
  if (!shared) {
    const std::uint32_t seen = word;
    if (seen == none) word = label;
    return seen;
  }
  // std::atomic_ref where the standard library has it, else the compiler builtins it is made of
  // (the libc++ of Debian's Emscripten, which builds the explorer, has no atomic_ref yet).
#if defined(__cpp_lib_atomic_ref)
  std::atomic_ref<std::uint32_t> ref(word);
  std::uint32_t seen = ref.load(std::memory_order_relaxed);
  if (seen != none) return seen;
  return ref.compare_exchange_strong(seen, label, std::memory_order_relaxed) ? none : seen;
#else
  std::uint32_t seen = __atomic_load_n(&word, __ATOMIC_RELAXED);
  if (seen != none) return seen;
  return __atomic_compare_exchange_n(&word, &seen, label, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED) ? none : seen;
#endif
}

}  // namespace

// One thread's walks: 16 walkers in turn, so that their cache misses overlap. Walks start in the
// chunks of `chunk` pairs this thread claims; a walk's id is chunk index x chunk + its rank among
// the chunk's walks (each walk owns its distinct start pair, so the rank is below `chunk`).
void RegularBipartiteColourer::walk_chains(const std::uint32_t* partner, std::uint32_t* segment_of, std::size_t pairs,
                                           std::size_t chunk, std::size_t chunks, std::atomic<std::size_t>& next_chunk,
                                           std::uint32_t* walks_in_chunk, bool shared, Scratch& s) {
  struct Walker {
    std::uint32_t cur = 0, id = 0, start = 0, min = 0;
    bool active = false;
  };
  std::size_t c = 0, scan = 0, end = 0;
  std::uint32_t rank = 0;
  bool have_chunk = false;
  const auto start = [&](Walker& w) {
    while (true) {
      for (; have_chunk && scan < end; ++scan) {
        const auto label = static_cast<std::uint32_t>(c * chunk + rank) << 1;  // edge 2 scan goes first
        if (claim(segment_of[scan], label, kNone, shared) != kNone) continue;
        w = Walker{partner[2 * scan + 1] & kIndex, label >> 1, static_cast<std::uint32_t>(scan),
                   static_cast<std::uint32_t>(scan), true};
        ++rank;
        ++scan;
        return true;
      }
      if (have_chunk) walks_in_chunk[c] = rank;
      c = next_chunk.fetch_add(1, std::memory_order_relaxed);
      if (c >= chunks) {
        have_chunk = false;
        return false;
      }
      have_chunk = true;
      scan = c * chunk;
      end = std::min(pairs, scan + chunk);
      rank = 0;
    }
  };
  constexpr int kWalkers = 16;
  Walker walkers[kWalkers];
  int active = 0;
  for (auto& w : walkers) active += start(w) ? 1 : 0;
  while (active > 0) {
    for (auto& w : walkers) {
      if (!w.active) continue;
      const std::uint32_t q = w.cur >> 1;
      const std::uint32_t seen = claim(segment_of[q], (w.id << 1) | (w.cur & 1u), kNone, shared);
      if (seen == kNone) {
        w.min = std::min(w.min, q);
        w.cur = partner[w.cur ^ 1u] & kIndex;
        continue;
      }
      s.meetings.push_back({w.id, seen >> 1, (w.cur & 1u) != (seen & 1u)});
      s.walks.push_back({w.id, w.start, w.min});
      w.active = false;
      if (start(w)) continue;
      --active;
    }
  }
}

void RegularBipartiteColourer::label_chains_interleaved(std::uint32_t* partner, std::uint32_t* segment_of,
                                                        std::size_t len, WorkerPool* pool, unsigned slot) {
  const std::size_t pairs = len / 2;
  const std::size_t tasks = pool ? pool->threads() : 1;
  // Chunks: a power of two of pairs, about eight per thread and at most 4096 pairs; the ids fit in
  // 31 bits (chunk x rank < pairs + chunk <= 2^29 + 2^12).
  std::size_t chunk = 1;
  while (chunk < 4096 && chunk * 8 * tasks < pairs) chunk *= 2;
  const std::size_t chunks = (pairs + chunk - 1) / chunk;
  Scratch& s = scratch_[slot];
  std::vector<std::uint32_t>& base = s.chunk_base;
  base.assign(chunks + 1, 0);
  std::atomic<std::size_t> next_chunk{0};
  const auto clear_labels = [&](std::size_t task) {
    std::fill(segment_of + pairs * task / tasks, segment_of + pairs * (task + 1) / tasks, kNone);
  };
  const auto walk = [&](std::size_t task) {
    Scratch& mine = scratch_[slot + task];
    mine.walks.clear();
    mine.meetings.clear();
    walk_chains(partner, segment_of, pairs, chunk, chunks, next_chunk, base.data() + 1, pool != nullptr, mine);
  };
  if (pool) {
    pool->run(tasks, clear_labels);
    pool->run(tasks, walk);
  } else {
    clear_labels(0);
    walk(0);
  }
  // Walk ids, sparse per chunk, become dense: chunk c's walks follow those of chunks < c.
  for (std::size_t c = 0; c < chunks; ++c) base[c + 1] += base[c];
  const std::uint32_t walks = base[chunks];
  const auto dense = [&](std::uint32_t id) { return base[id / chunk] + static_cast<std::uint32_t>(id % chunk); };
  s.seg_parent.resize(walks);
  s.seg_parity.assign(walks, 0);
  s.seg_start.resize(walks);
  s.seg_min.resize(walks);
  for (std::uint32_t x = 0; x < walks; ++x) s.seg_parent[x] = x;
  for (std::size_t task = 0; task < tasks; ++task)
    for (const Walk& w : scratch_[slot + task].walks) {
      const std::uint32_t x = dense(w.id);
      s.seg_start[x] = w.start;
      s.seg_min[x] = w.min;
    }
  ParityUnionFind uf{s.seg_parent, s.seg_parity};
  for (std::size_t task = 0; task < tasks; ++task)
    for (const Meeting& m : scratch_[slot + task].meetings) uf.relate(dense(m.a), dense(m.b), m.opposite);
  // A walk began by choosing its start pair's orientation, so the right-node link into that pair's
  // first edge 2s was never crossed: its far edge z must end in the other half.
  for (std::uint32_t x = 0; x < walks; ++x) {
    const std::uint32_t z = partner[2 * std::size_t{s.seg_start[x]}] & kIndex;
    const std::uint32_t owner = segment_of[z >> 1];
    uf.relate(x, dense(owner >> 1), (z & 1u) == (owner & 1u));
  }
  // Each chain's lowest pair puts its even edge first: per root, the lowest pair of its walks, and
  // the flip that orientation asks of the root (seg_start is free again and holds the lowest pair).
  std::vector<std::uint8_t> flip(walks, 0);
  std::vector<std::uint32_t>& lowest = s.seg_start;
  std::fill(lowest.begin(), lowest.end(), kNone);
  for (std::uint32_t x = 0; x < walks; ++x) {
    std::uint8_t p = 0;
    const std::uint32_t root = uf.find(x, p);
    const std::uint32_t m = s.seg_min[x];
    if (m < lowest[root]) {
      lowest[root] = m;
      flip[root] = static_cast<std::uint8_t>((segment_of[m] & 1u) ^ p);
    }
  }
  // After the finds, a walk's parent is its root and its parity is relative to the root.
  for (std::uint32_t x = 0; x < walks; ++x) s.seg_parity[x] ^= flip[s.seg_parent[x]];
  const auto mark = [&](std::size_t task) {
    for (std::size_t q = pairs * task / tasks; q < pairs * (task + 1) / tasks; ++q) {
      const std::uint32_t label = segment_of[q];
      const std::size_t first = 2 * q | ((label & 1u) ^ s.seg_parity[dense(label >> 1)]);
      partner[first] |= kFirstHalf;
    }
  };
  if (pool)
    pool->run(tasks, mark);
  else
    mark(0);
}

}  // namespace mmsim::offline
