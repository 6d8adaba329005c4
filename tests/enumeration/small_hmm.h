// The machine the transposition tests share: an HMM of w = 8 (so that a few tiles make an order-64
// matrix), and a TLB of 8 entries of 256 cells that small orders already overflow.
#pragma once

#include "models/machines.h"
#include "models/tlb/tlb.h"
#include "sim/engine.h"

namespace mmsim::enumeration {

inline MachineParams small_hmm(int w = 8) { return MachineParams{ModelKind::Hmm, w, /*l=*/1, /*L=*/20, /*k=*/2}; }
inline TlbParams small_tlb() { return TlbParams{.page_cells = 256, .entries = 8, .ways = 2, .miss_penalty = 8}; }

inline const EngineOptions kSync{Execution::RoundSynchronous, false};
inline const EngineOptions kAsync{Execution::Asynchronous, false};

}  // namespace mmsim::enumeration
