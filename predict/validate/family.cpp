#include "predict/validate/family.h"

#include <algorithm>

namespace mmsim::predict::validate {

MeasuredRun timed_row(const CsvRow& row, const std::string& source, const std::string& family,
                      const std::string& ms_column, double ms_per_unit) {
  MeasuredRun m;
  m.source = source;
  m.family = family;
  m.ms = row.number(ms_column) * ms_per_unit;
  if (!(m.ms > 0)) throw row.error(ms_column + " must be positive");
  return m;
}

std::uint32_t resident_blocks(std::uint32_t threads, std::uint64_t shared_bytes) {
  constexpr std::uint64_t kThreads = 2048, kBlocks = 32, kShared = 228 * 1024, kReserved = 1024;
  if (threads == 0) return 0;
  const std::uint64_t by_shared = kShared / (shared_bytes + kReserved);
  return static_cast<std::uint32_t>(std::min({kThreads / threads, kBlocks, by_shared}));
}

const std::vector<FamilyReader>& family_readers() {
  static const std::vector<FamilyReader> all{
      {"rap", "rap-t3.csv", read_rap},     {"bmmc", "bmmc.csv", read_bmmc},
      {"parm", "parm-gpu.csv", read_parm}, {"enumeration", "enumeration.csv", read_enumeration},
      {"as", "as-gpu.csv", read_as},
  };
  return all;
}

}  // namespace mmsim::predict::validate
