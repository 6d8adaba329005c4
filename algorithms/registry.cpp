#include "algorithms/registry.h"

#include "algorithms/bmmc/catalogue.h"
#include "algorithms/enumeration/catalogue.h"
#include "algorithms/layouts/catalogue.h"
#include "algorithms/permutations/conventional.h"
#include "algorithms/offline/offline.h"
#include "algorithms/sorting/sorting.h"

namespace mmsim {

const std::vector<PermutationAlgorithm>& permutation_algorithms() {
  static const std::vector<PermutationAlgorithm> all{
      d_designated(),
      s_designated(),
      transpose_algorithm(), shuffle_algorithm(), bit_reversal_algorithm(),  // papers/000 Sect. 5
      row_wise_algorithm(), column_wise_algorithm(), scheduled_algorithm(),    // papers/000 Sect. 6-7
  };
  return all;
}

const PermutationAlgorithm* find_permutation_algorithm(const std::string& name) {
  for (const auto& a : permutation_algorithms())
    if (a.name == name) return &a;
  return nullptr;
}

std::vector<CatalogueEntry> catalogue() {
  std::vector<CatalogueEntry> out;
  for (const auto& a : permutation_algorithms()) out.push_back({"algorithm", a.name, a.description, a.paper});
  const std::vector<std::pair<std::string, std::string>> perms{
      {"identical", "P(u) = u"},
      {"shuffle", "P(u_m ... u_1) = u_{m-1} ... u_1 u_m (n a power of two)"},
      {"bit-reversal", "P(u_m ... u_1) = u_1 ... u_m (n a power of two)"},
      {"transpose", "P(i sqrt(n) + j) = j sqrt(n) + i (n a perfect square)"},
      {"random", "uniform over all n! permutations, from --seed (default 1)"},
  };
  for (const auto& [name, what] : perms) out.push_back({"permutation", name, what, "papers/000 Sect. 4"});
  out.push_back({"permutation", "--perm-file F", "one destination P(i) per line, i = 0..n-1", "papers/000 Sect. 4"});
  append_layout_catalogue(out);
  bmmc::append_catalogue(out);
  enumeration::append_catalogue(out);
  for (auto& e : sorting::catalogue_entries()) out.push_back(std::move(e));
  return out;
}

}  // namespace mmsim
