#include "experiments/tables.h"

namespace mmsim::experiments {

const std::vector<TableSpec>& tables() {
  static const std::vector<TableSpec> all{
      {"kasagi-t1", "rounds of each kind and time units of the permutation algorithms on the HMM",
       "papers/000 Table 1", kasagi_t1},
  };
  return all;
}

const TableSpec* find_table(const std::string& name) {
  for (const auto& t : tables())
    if (t.name == name) return &t;
  return nullptr;
}

}  // namespace mmsim::experiments
