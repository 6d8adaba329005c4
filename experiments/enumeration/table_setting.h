// The simulated machine setting shared by the enumeration tables (the 2D `enumeration-tlb` and
// `enumeration-bands`, the 3D `enumeration-3d`), so that their rows stay comparable.
#pragma once

#include <cstdint>
#include <string>

#include "models/machines.h"
#include "models/tlb/tlb.h"
#include "report/table.h"

namespace mmsim::experiments {

// The TLB: pages of 16384 cells hold 16 rows of a 1024-order matrix (a GPU's 2 MB page holds about
// 21 rows of the 24K-order matrix where GL Fig. 2 starts to fall), and 32 entries reach 2^19
// cells, an order of about 724: orders below fit, orders above thrash.
inline TlbParams table_tlb() {
  TlbParams t;
  t.page_cells = 16384;
  t.entries = 32;
  t.ways = 4;
  t.miss_penalty = 16;
  return t;
}

// The tables' headings open with the machine and the TLB; what follows each is the table's own.
inline std::string hmm_heading(const MachineParams& m) {
  return "HMM w = " + std::to_string(m.w) + ", l = " + std::to_string(m.l) + ", L = " + std::to_string(m.L) +
         ", k = " + std::to_string(m.k);
}
inline std::string tlb_heading(const TlbParams& t) {
  return "TLB: " + std::to_string(t.entries) + " entries, " + std::to_string(t.ways) + "-way LRU, pages of " +
         std::to_string(t.page_cells) + " cells";
}

/// A table of this setting: its title and a heading of two lines, the machine's and the TLB's,
/// each followed by the table's own words about it.
inline report::Table setting_table(const std::string& title, const MachineParams& m, const std::string& on_machine,
                                   const std::string& on_tlb) {
  report::Table t;
  t.title = title;
  t.header = {hmm_heading(m) + on_machine, tlb_heading(table_tlb()) + on_tlb};
  return t;
}

inline constexpr std::uint32_t kResident = 2;  // blocks per DMM: 2 x 1024 threads, a full SM
inline constexpr std::uint64_t kBand = 4;      // V1B / V1BF band, in tiles

}  // namespace mmsim::experiments
