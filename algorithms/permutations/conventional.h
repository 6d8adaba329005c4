// The conventional offline permutation algorithms of KNI Sect. 4 on the HMM.
#pragma once

#include "algorithms/permutations/permutation_algorithm.h"

namespace mmsim {

/// D-designated: T(i) performs b[p[i]] <- a[i]. Rounds: coalesced read of a and of p, casual write
/// of b. Time D_w(P) + 2n/w + 3L - 3 (KNI Table 1, Lemma 4).
PermutationAlgorithm d_designated();

/// S-designated: T(i) performs b[i] <- a[q[i]] with q = P^-1. Rounds: coalesced read of q, casual
/// read of a, coalesced write of b. Time D_w(P^-1) + 2n/w + 3L - 3 (KNI Table 1, Lemma 4).
PermutationAlgorithm s_designated();

}  // namespace mmsim
