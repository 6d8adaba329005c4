#include "algorithms/bmmc/catalogue.h"

namespace mmsim::bmmc {

void append_catalogue(std::vector<CatalogueEntry>& out) {
  const std::string p = "papers/002";
  out.push_back({"algorithm", "bmmc",
                 "BMMC permutation y = Ax + c: --matrix F | --random-bpc | --random-bmmc | --bpc NAME, --kernel K",
                 p + " Sect. 4-5"});
  out.push_back({"algorithm", "parm-sort", "sorting network built from parm, compiled to BMMC permutations (--direct: none)",
                 p + " Sect. 7"});
  out.push_back({"kernel", "naive", "thread x writes dst[Ax + c] <- src[x]", p + " App. A"});
  out.push_back({"kernel", "tile", "one tile per block through shared memory: coalesced reads and writes", p + " Sect. 4.1"});
  out.push_back({"kernel", "tile-banks", "tile rows rotated: no bank conflicts", p + " Sect. 4.2"});
  out.push_back({"kernel", "tile-banks-iters", "2^iters tiles per block (--iters, default 3)", p + " Sect. 4.3"});
  for (const char* name : {"bit-reversal", "transpose", "shuffle", "unshuffle", "reverse", "identity"})
    out.push_back({"bpc", name, "named BPC for `run bmmc --bpc`", p + " Sect. 3"});
  out.push_back({"matrix", "--matrix F", "n lines of n bits (character j of row i = a_ij, j = 0 leftmost), then c",
                 p + " Sect. 3"});
}

}  // namespace mmsim::bmmc
