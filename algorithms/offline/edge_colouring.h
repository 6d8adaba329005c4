// Koenig edge colouring: a Delta-regular bipartite multigraph coloured with exactly Delta colours
// (KNI Theorem 6), the tool behind the row-wise and the scheduled permutations.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "algorithms/offline/no_init_vector.h"

namespace mmsim {
class WorkerPool;
}

namespace mmsim::offline {

/// Colours regular bipartite multigraphs, reusing its scratch memory from one graph to the next
/// (the row-wise schedule colours one small graph per matrix row).
///
/// Method: an even degree is halved by an Euler partition (pair the edges at every node, then
/// 2-colour each closed chain of pairs alternately: every node keeps half of its edges on each
/// side); an odd degree first peels off one perfect matching (Hopcroft-Karp; a regular bipartite
/// multigraph always has one, by Hall's theorem) as a colour class of its own. Time
/// O(E log Delta) plus one matching per odd degree met on the way.
///
/// Threads: the two halves of an Euler split are disjoint ranges of the edge buffers and use
/// disjoint colours, so with `threads` > 1 they are coloured at once, each half with half the
/// threads and its own scratch. A split given several threads runs on all of them (the pairing in
/// pieces of the edge range, the chain walks claiming pairs, the partition in pieces). Every split
/// is canonical: right pairs in order of appearance, and each chain oriented so that its lowest left
/// pair sends its even edge to the first half, whichever walk met that pair first. So the colouring
/// is the same for every number of threads and for either way of walking the chains.
class RegularBipartiteColourer {
 public:
  /// Edges (u[e], v[e]) with u, v < nodes (nodes per side). Every node on both sides must have the
  /// same degree Delta = E / nodes >= 1; throws std::invalid_argument otherwise. Returns colour[e]
  /// in 0..Delta-1 with no two edges of one colour sharing a node.
  std::vector<std::uint32_t> colour(std::uint32_t nodes, std::span<const std::uint32_t> u,
                                    std::span<const std::uint32_t> v);

  /// The same for edges already grouped by their left node: edge e has u = e / Delta and right node
  /// v[e], Delta = v.size() / nodes. Writes colour[e]. No allocation once the scratch is large enough.
  /// `threads` host threads share the work (0: every core); the colouring is the same for all.
  void colour_grouped(std::uint32_t nodes, std::span<const std::uint32_t> v, std::span<std::uint32_t> colour,
                      unsigned threads = 1);

  /// Segments of at least this many edges walk their chains interleaved (tests lower it to check
  /// that path on small graphs).
  void set_interleave_threshold(std::size_t edges) { interleave_threshold_ = edges; }
  /// Halves of at least this many edges go to a thread of their own, and a segment of at least this
  /// many edges given several threads splits on all of them (tests lower it).
  void set_parallel_threshold(std::size_t edges) { parallel_threshold_ = edges; }

 private:
  // No edge; an edge index; the partner word's two flag bits (the single chain walk's visit mark,
  // and the first-half mark of the split).
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;
  static constexpr std::uint32_t kVisited = 1u << 31, kFirstHalf = 1u << 30, kIndex = kFirstHalf - 1;
  static constexpr std::uint32_t kCarry = kNone - 1;  // pending: this node's next edge pairs with an earlier piece

  // A walk of the interleaved chain labelling: its id, the left pair it started on, the lowest
  // pair it labelled.
  struct Walk {
    std::uint32_t id, start, min;
  };
  // Walk a reached a pair walk b had labelled; `opposite`: they put different edges of it first.
  struct Meeting {
    std::uint32_t a, b;
    bool opposite;
  };
  // What one thread needs for itself: per node, or per walk of one segment.
  struct Scratch {
    std::vector<std::uint32_t> pending;  // per right node: an edge waiting for its partner
    std::vector<std::uint8_t> side;      // matched edges while peeling a matching
    // Interleaved chain walks: a union-find with parity over the walks (on the first task's
    // scratch), and what each task's walks found.
    std::vector<std::uint32_t> seg_parent, seg_start, seg_min, chunk_base;
    std::vector<std::uint8_t> seg_parity;
    std::vector<Walk> walks;
    std::vector<Meeting> meetings;
    // Pairing at the right nodes in pieces: per node, the parity of its edges before this piece
    // and its first edge in this piece.
    std::vector<std::uint8_t> parity_before;
    std::vector<std::uint32_t> first;
    // Hopcroft-Karp, per node.
    std::vector<std::uint32_t> match_left, match_right, dist, queue, cursor, stack;
  };

  // Colours segment [begin, begin + nodes * degree) of buffer `buf`, grouped by left node, with
  // `threads` threads and scratch_[slot .. slot + threads).
  void colour_segment(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree, std::uint32_t first,
                      std::span<std::uint32_t> colour, unsigned threads, unsigned slot);
  // Splits the segment of buffer `buf` into two halves of degree / 2 at the same offsets of the
  // other buffer, with `threads` threads and scratch_[slot .. slot + threads).
  void euler_split(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree, unsigned threads,
                   unsigned slot);
  // Pairs the segment's edges at their right nodes in order of appearance (partner[t]), on the
  // pool's threads when there is a pool.
  void pair_at_right_nodes(const std::uint32_t* v, std::uint32_t* partner, std::size_t len, std::uint32_t nodes,
                           WorkerPool* pool, unsigned slot);
  // Marks in partner which edge of every left pair goes to the first half, one chain after the other.
  void label_chains_single(std::uint32_t* partner, std::size_t len);
  // The same mark, by many walks at once (on the pool's threads when there is a pool); segment_of
  // holds per left pair of the segment (walk id << 1) | the pair's edge that walk put first.
  void label_chains_interleaved(std::uint32_t* partner, std::uint32_t* segment_of, std::size_t len, WorkerPool* pool,
                                unsigned slot);
  void walk_chains(const std::uint32_t* partner, std::uint32_t* segment_of, std::size_t pairs, std::size_t chunk,
                   std::size_t chunks, std::atomic<std::size_t>& next_chunk, std::uint32_t* walks_in_chunk, bool shared,
                   Scratch& s);
  void peel_matching(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree,
                     std::uint32_t colour_of_matching, std::span<std::uint32_t> colour, Scratch& s);

  std::size_t interleave_threshold_ = std::size_t{1} << 17;
  std::size_t parallel_threshold_ = std::size_t{1} << 15;
  // Indexed by edge offset, shared by the threads: their segments are disjoint.
  NoInitVector<std::uint32_t> v_[2], id_[2];  // the edges (right node, original index), two buffers
  NoInitVector<std::uint32_t> partner_;       // partner of an edge at its right node, plus two flag bits
  // Interleaved chain walks: per left pair (offset / 2) its walk and which edge that walk put first.
  NoInitVector<std::uint32_t> segment_of_;
  std::vector<Scratch> scratch_;  // one per thread
};

/// True when `colour` is a proper colouring of the edges with colours < colours.
bool is_proper_colouring(std::uint32_t nodes, std::span<const std::uint32_t> u, std::span<const std::uint32_t> v,
                         std::span<const std::uint32_t> colour, std::uint32_t colours);

}  // namespace mmsim::offline
