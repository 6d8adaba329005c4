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
class RegularBipartiteColourer {
 public:
  /// Edges (u[e], v[e]) with u, v < nodes (nodes per side). Every node on both sides must have the
  /// same degree Delta = E / nodes >= 1; throws std::invalid_argument otherwise. Returns colour[e]
  /// in 0..Delta-1 with no two edges of one colour sharing a node.
  std::vector<std::uint32_t> colour(std::uint32_t nodes, std::span<const std::uint32_t> u,
                                    std::span<const std::uint32_t> v);

  /// The same for edges already grouped by their left node: edge e has u = e / Delta and right node
  /// v[e], Delta = v.size() / nodes. Writes colour[e]. No allocation once the scratch is large enough.
  void colour_grouped(std::uint32_t nodes, std::span<const std::uint32_t> v, std::span<std::uint32_t> colour);

  /// Segments of at least this many edges walk their chains interleaved (tests lower it to check
  /// that path on small graphs).
  void set_interleave_threshold(std::size_t edges) { interleave_threshold_ = edges; }

 private:
  // Colours segment [begin, begin + nodes * degree) of buffer `buf`, grouped by left node.
  void colour_segment(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree, std::uint32_t first,
                      std::span<std::uint32_t> colour);
  // Splits the segment of buffer `buf` into two halves of degree / 2 at the same offsets of the
  // other buffer.
  void euler_split(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree);
  // Marks in partner_ which edge of every left pair goes to the first half.
  void label_chains_single(std::uint32_t* partner, std::size_t len);
  void label_chains_interleaved(std::uint32_t* partner, std::size_t len);
  void peel_matching(int buf, std::size_t begin, std::uint32_t nodes, std::uint32_t degree,
                     std::uint32_t colour_of_matching, std::span<std::uint32_t> colour);

  std::size_t interleave_threshold_ = std::size_t{1} << 17;
  std::vector<std::uint32_t> v_[2], id_[2];  // the edges (right node, original index), two buffers
  std::vector<std::uint32_t> partner_;       // partner of an edge at its right node, plus two flag bits
  std::vector<std::uint8_t> side_;           // matched edges while peeling a matching
  std::vector<std::uint32_t> pending_;       // per right node: an edge waiting for its partner
  // Interleaved chain walks: per left pair its walk segment and which edge that walk put first.
  std::vector<std::uint32_t> segment_of_;
  std::vector<std::uint32_t> seg_parent_;
  std::vector<std::uint8_t> seg_parity_;
  std::vector<std::uint32_t> seg_start_;
  // Hopcroft-Karp scratch, per node.
  std::vector<std::uint32_t> match_left_, match_right_, dist_, queue_, cursor_, stack_;
};

/// True when `colour` is a proper colouring of the edges with colours < colours.
bool is_proper_colouring(std::uint32_t nodes, std::span<const std::uint32_t> u, std::span<const std::uint32_t> v,
                         std::span<const std::uint32_t> colour, std::uint32_t colours);

}  // namespace mmsim::offline
