#include "predict/validate/family.h"

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

const std::vector<FamilyReader>& family_readers() {
  static const std::vector<FamilyReader> all{
      {"rap", "rap-t3.csv", read_rap},     {"bmmc", "bmmc.csv", read_bmmc},
      {"parm", "parm-gpu.csv", read_parm}, {"enumeration", "enumeration.csv", read_enumeration},
      {"as", "as-gpu.csv", read_as},
  };
  return all;
}

}  // namespace mmsim::predict::validate
