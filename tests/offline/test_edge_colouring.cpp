// Koenig edge colouring (KNI Theorem 6): properness and exactly Delta colours on random
// regular bipartite multigraphs, cross-checked with Boost.Graph's maximum matching.
#include <doctest/doctest.h>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/max_cardinality_matching.hpp>
#include <numeric>
#include <stdexcept>

#include "algorithms/offline/edge_colouring.h"
#include "sim/random.h"

using namespace mmsim;
using namespace mmsim::offline;

namespace {

struct Graph {
  std::uint32_t nodes = 0, degree = 0;
  std::vector<std::uint32_t> u, v;
};

// A union of `degree` random perfect matchings: every node has exactly `degree` edges, with
// parallel edges whenever two matchings agree. The edge order is shuffled.
Graph random_regular(std::uint32_t nodes, std::uint32_t degree, std::uint64_t seed) {
  Rng rng(seed);
  Graph g{nodes, degree, {}, {}};
  std::vector<std::uint32_t> p(nodes);
  for (std::uint32_t d = 0; d < degree; ++d) {
    std::iota(p.begin(), p.end(), 0u);
    rng.shuffle(std::span<std::uint32_t>(p));
    for (std::uint32_t x = 0; x < nodes; ++x) {
      g.u.push_back(x);
      g.v.push_back(p[x]);
    }
  }
  std::vector<std::size_t> order(g.u.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  rng.shuffle(std::span<std::size_t>(order));
  Graph h{nodes, degree, {}, {}};
  for (const auto e : order) {
    h.u.push_back(g.u[e]);
    h.v.push_back(g.v[e]);
  }
  return h;
}

// Independent check with Boost: every colour class has `nodes` edges and a maximum matching of
// `nodes` edges on its 2 * nodes vertices, so the class is itself a perfect matching.
void check_with_boost(const Graph& g, const std::vector<std::uint32_t>& colour) {
  using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  for (std::uint32_t c = 0; c < g.degree; ++c) {
    BoostGraph bg(2 * g.nodes);
    std::size_t edges = 0;
    for (std::size_t e = 0; e < g.u.size(); ++e)
      if (colour[e] == c) {
        boost::add_edge(g.u[e], g.nodes + g.v[e], bg);
        ++edges;
      }
    std::vector<boost::graph_traits<BoostGraph>::vertex_descriptor> mate(2 * g.nodes);
    boost::edmonds_maximum_cardinality_matching(bg, &mate[0]);
    CHECK(edges == g.nodes);
    CHECK(boost::matching_size(bg, &mate[0]) == g.nodes);
  }
}

void check_colouring(std::uint32_t nodes, std::uint32_t degree, std::uint64_t seed, bool boost_check,
                     std::size_t interleave = std::size_t{1} << 17) {
  CAPTURE(nodes);
  CAPTURE(degree);
  CAPTURE(interleave);
  const Graph g = random_regular(nodes, degree, seed);
  RegularBipartiteColourer colourer;
  colourer.set_interleave_threshold(interleave);
  const auto colour = colourer.colour(nodes, g.u, g.v);
  REQUIRE(colour.size() == g.u.size());
  CHECK(is_proper_colouring(nodes, g.u, g.v, colour, degree));
  // Exactly Delta colours, each used nodes times.
  std::vector<std::uint32_t> used(degree, 0);
  for (const auto c : colour) {
    REQUIRE(c < degree);
    ++used[c];
  }
  for (const auto k : used) CHECK(k == nodes);
  if (boost_check) check_with_boost(g, colour);
}

}  // namespace

TEST_CASE("colouring: odd and even degrees, small graphs, checked with Boost") {
  std::uint64_t seed = 1;
  for (const std::uint32_t nodes : {1u, 2u, 3u, 5u, 8u, 13u, 32u})
    for (const std::uint32_t degree : {1u, 2u, 3u, 4u, 5u, 6u, 7u, 8u, 9u, 12u, 15u, 16u})
      check_colouring(nodes, degree, seed++, true);
}

TEST_CASE("colouring: the interleaved chain walk agrees with the single one") {
  std::uint64_t seed = 100;
  for (const std::uint32_t nodes : {2u, 3u, 10u, 50u, 96u})
    for (const std::uint32_t degree : {2u, 6u, 7u, 8u, 33u, 64u}) {
      check_colouring(nodes, degree, seed, nodes <= 10, 2);
      check_colouring(nodes, degree, seed++, false, 64);
    }
}

TEST_CASE("colouring: larger graphs (interleaved walks at the default threshold)") {
  check_colouring(512, 256, 7, false);  // 2^17 edges: the top split walks interleaved
  check_colouring(600, 257, 8, false);  // odd degree: a Hopcroft-Karp matching first
  check_colouring(96, 96, 9, true);     // the scheduled permutation's graph for n = 96^2
}

TEST_CASE("colouring: the grouped interface") {
  // Left node x owns edges [x d, (x + 1) d): a 3-regular graph on 4 nodes with parallel edges.
  const std::vector<std::uint32_t> v{0, 0, 1, 1, 1, 2, 2, 3, 3, 3, 2, 0};
  std::vector<std::uint32_t> colour(v.size());
  RegularBipartiteColourer c;
  c.colour_grouped(4, v, colour);
  std::vector<std::uint32_t> u(v.size());
  for (std::size_t e = 0; e < v.size(); ++e) u[e] = static_cast<std::uint32_t>(e / 3);
  CHECK(is_proper_colouring(4, u, v, colour, 3));
}

TEST_CASE("colouring: irregular graphs are refused") {
  RegularBipartiteColourer c;
  CHECK_THROWS_AS(c.colour(2, std::vector<std::uint32_t>{0, 0, 1, 1}, std::vector<std::uint32_t>{0, 0, 0, 1}),
                  std::invalid_argument);
  CHECK_THROWS_AS(c.colour(2, std::vector<std::uint32_t>{0, 0, 0, 1}, std::vector<std::uint32_t>{0, 1, 0, 1}),
                  std::invalid_argument);
  CHECK_THROWS_AS(c.colour(2, std::vector<std::uint32_t>{0, 1, 2}, std::vector<std::uint32_t>{0, 1, 1}),
                  std::invalid_argument);
  CHECK_THROWS_AS(c.colour(0, std::vector<std::uint32_t>{}, std::vector<std::uint32_t>{}), std::invalid_argument);
}
