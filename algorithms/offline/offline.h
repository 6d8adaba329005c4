// The offline permutation algorithms of KNI Sect. 5-7 on the HMM, as registry entries.
#pragma once

#include <vector>

#include "algorithms/permutations/permutation_algorithm.h"

namespace mmsim {

/// In-place transpose, shuffle and bit-reversal through a w x w diagonal tile (KNI Sect. 5).
PermutationAlgorithm transpose_algorithm();
PermutationAlgorithm shuffle_algorithm();
PermutationAlgorithm bit_reversal_algorithm();

/// Row-wise and column-wise permutations of the sqrt(n) x sqrt(n) matrix (KNI Sect. 6).
PermutationAlgorithm row_wise_algorithm();
PermutationAlgorithm column_wise_algorithm();

/// The scheduled three-step permutation of any P (KNI Sect. 7).
PermutationAlgorithm scheduled_algorithm();

/// The same three steps as the GPU's scheduled-fused kernels run them: three passes over the data,
/// each a block of rows through shared memory by a gather table, the first two written transposed
/// (offline::fused_row_kernel); no transpose kernels and no bank colouring.
PermutationAlgorithm scheduled_fused_algorithm();

/// The six above, in Table 1's order.
std::vector<PermutationAlgorithm> offline_algorithms();

}  // namespace mmsim
