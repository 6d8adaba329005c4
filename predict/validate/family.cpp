#include "predict/validate/family.h"

namespace mmsim::predict::validate {

const std::vector<FamilyReader>& family_readers() {
  static const std::vector<FamilyReader> all{
      {"rap", "rap-t3.csv", read_rap},     {"bmmc", "bmmc.csv", read_bmmc},
      {"parm", "parm-gpu.csv", read_parm}, {"enumeration", "enumeration.csv", read_enumeration},
      {"as", "as-gpu.csv", read_as},
  };
  return all;
}

}  // namespace mmsim::predict::validate
