#include "algorithms/enumeration/catalogue.h"

namespace mmsim::enumeration {

void append_catalogue(std::vector<CatalogueEntry>& out) {
  const std::string p = "papers/004";
  out.push_back({"algorithm", "transpose-ip-naive",
                 "in-place tile-pair transposition of an --order N matrix, full grid, blocks above the diagonal idle",
                 p + " Sect. 3, Listing 2"});
  out.push_back({"algorithm", "transpose-ip-supergrid",
                 "in-place, one launch per --region R x R tiles on or below the diagonal",
                 p + " Sect. 3.1, Listings 3-4"});
  out.push_back({"algorithm", "transpose-ip-v1", "in-place, triangular grid decoded by V1 (rows, left to right)",
                 p + " Sect. 3.2, 4.3"});
  out.push_back({"algorithm", "transpose-ip-v1r", "in-place, triangular grid decoded by V1R (rows, right to left)",
                 p + " Sect. 4.4"});
  out.push_back({"algorithm", "transpose-ip-v1b",
                 "in-place, triangular grid decoded by V1B (bands of --band W tile columns)", p + " Sect. 5.1"});
  out.push_back({"algorithm", "transpose-oop-nvidia",
                 "out-of-place --rows R --cols C transposition through a padded shared tile, row-major grid",
                 p + " Sect. 3, Listing 1"});
  out.push_back({"algorithm", "transpose-oop-v1bf",
                 "out-of-place, tiles visited in V1BF order (bands of --band W tile columns)", p + " Sect. 6"});
  out.push_back(
      {"option", "--tlb-entries E",
       "transpose-*: a TLB of E entries on the global memory (--page-cells, --tlb-ways, --tlb-penalty slots per miss)",
       p + " Sect. 3.1"});
}

}  // namespace mmsim::enumeration
