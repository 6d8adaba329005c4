// The slot rules of the memory machine models, as functions of one warp's addresses.
//
// KNI Sect. 2 and NMI Sect. II: in the DMM a warp occupies as many slots as its
// congestion, the largest number of distinct addresses it requests in one bank (bank = address mod
// w); in the UMM as many slots as distinct address groups (group = floor(address / w)). Equal
// addresses merge (CRCW); kNoAddress stands for a thread that requests nothing.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sim/memory_model.h"
#include "sim/types.h"

namespace mmsim {

/// DMM cost of one warp access: slots = congestion; extra bank requests = sum over banks of (distinct - 1).
WarpCost bank_cost(std::span<const Address> warp, int w);
/// UMM cost of one warp access: slots = distinct address groups; congestion as in the DMM.
WarpCost group_cost(std::span<const Address> warp, int w);

/// Congestion alone (NMI Sect. II), for Monte Carlo experiments over layouts.
int congestion(std::span<const Address> warp, int w);

/// The merged requests of a warp split into its DMM slots: slot s holds the s-th distinct address
/// of every bank, banks in increasing order.
std::vector<std::vector<Address>> bank_slots(std::span<const Address> warp, int w);
/// The merged requests of a warp split into its UMM slots: one per address group, in the order of
/// the group's first request.
std::vector<std::vector<Address>> group_slots(std::span<const Address> warp, int w);

}  // namespace mmsim
