// The host half of the GPU transposes' layouts: the layouts family's kinds and random shifts, in
// the form the kernels of cuda/rap.cu read (NMI Sect. IV, VI).
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/layouts/transposes.h"
#include "cuda/rap_index.h"
#include "models/layouts/matrix_layout.h"

namespace mmsim::gpu {

/// The layouts family's kind and transpose of the GPU's enums (the same order; see rap_index.h).
layouts::MatrixLayoutKind kind_of(SmemLayout k);
layouts::Transpose transpose_of(SmemTranspose t);
inline bool random_layout(SmemLayout k) { return k == SmemLayout::Ras || k == SmemLayout::Rap; }

/// The shifts r_0 .. r_31 of `count` layouts of kind k drawn exactly as rap-t3 draws them
/// (layouts::Draws(seed + s), then layouts::MatrixLayout(k, 32, draws)), 32 bytes per layout; raw,
/// pad and xor have no shifts: one row of zeros.
std::vector<std::uint8_t> rap_shifts(SmemLayout k, std::uint64_t seed, std::uint64_t count);

}  // namespace mmsim::gpu
