// Koenig edge colouring: a Delta-regular bipartite multigraph coloured with exactly Delta colours
// (KNI Theorem 6), the tool behind the row-wise and the scheduled permutations.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

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
/// threads and its own scratch; every split is the one the single-threaded recursion makes, so the
/// colouring is the same for every number of threads.
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
  /// Halves of at least this many edges go to a thread of their own (tests lower it).
  void set_parallel_threshold(std::size_t edges) { parallel_threshold_ = edges; }

 private:
  // What one thread needs for itself: per node, or per walk of one segment.
  struct Scratch {
    std::vector<std::uint32_t> pending;  // per right node: an edge waiting for its partner
    std::vector<std::uint8_t> side;      // matched edges while peeling a matching
    // Interleaved chain walks: a union-find with parity over the walks.
    std::vector<std::uint32_t> seg_parent;
    std::vector<std::uint8_t> seg_parity;
    std::vector<std::uint32_t> seg_start;
    // Hopcroft-Karp, per node.
    std::vector<std::uint32_t> match_left, match_right, dist, queue, cursor, stack;
  };

  // Colours segment [begin, begin + nodes * degree) of buffer `buf`, grouped by left node, with
  // `threads` threads and scratch_[slot .. slot + threads).
  void colour_segment(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree, std::uint32_t first,
                      std::span<std::uint32_t> colour, unsigned threads, unsigned slot);
  // Splits the segment of buffer `buf` into two halves of degree / 2 at the same offsets of the
  // other buffer.
  void euler_split(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree, Scratch& s);
  // Marks in partner_ which edge of every left pair goes to the first half.
  void label_chains_single(std::uint32_t* partner, std::size_t len);
  void label_chains_interleaved(std::uint32_t* partner, std::uint32_t* segment_of, std::size_t len, Scratch& s);
  void peel_matching(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree,
                     std::uint32_t colour_of_matching, std::span<std::uint32_t> colour, Scratch& s);

  std::size_t interleave_threshold_ = std::size_t{1} << 17;
  std::size_t parallel_threshold_ = std::size_t{1} << 15;
  // Indexed by edge offset, shared by the threads: their segments are disjoint.
  std::vector<std::uint32_t> v_[2], id_[2];  // the edges (right node, original index), two buffers
  std::vector<std::uint32_t> partner_;       // partner of an edge at its right node, plus two flag bits
  // Interleaved chain walks: per left pair (offset / 2) its walk and which edge that walk put first.
  std::vector<std::uint32_t> segment_of_;
  std::vector<Scratch> scratch_;  // one per thread
};

/// True when `colour` is a proper colouring of the edges with colours < colours.
bool is_proper_colouring(std::uint32_t nodes, std::span<const std::uint32_t> u, std::span<const std::uint32_t> v,
                         std::span<const std::uint32_t> colour, std::uint32_t colours);

}  // namespace mmsim::offline
