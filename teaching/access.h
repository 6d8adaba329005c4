// Folder teaching/ (target mmsim::teaching): the views that explain the machine. It owns one posed
// warp access and its slots (this header, posed_access.h), the address expressions of --addr
// (expression.h), the layout view, the trace reader and view, and the pipeline diagram, as text,
// JSON and SVG. The CLI's access, layout and trace commands, the explorer and the Python module
// draw through it. It may include sim/, models/, io/, report/ and algorithms/.
//
// A few explicit warp accesses on a DMM or UMM, simulated with a trace and annotated for teaching:
// KNI Sect. 2 Fig. 2, NMI Sect. II.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/machines.h"
#include "models/real_accesses.h"
#include "report/json.h"
#include "sim/stats.h"

namespace mmsim::teaching {

/// One thread's request as the annotated view shows it.
struct ThreadRequest {
  ThreadId thread = 0;
  Address address = kNoAddress;  ///< kNoAddress: an inactive thread
  /// DMM: the bank, address mod w. UMM: the address group, floor(address / w) (KNI Sect. 2).
  std::uint64_t unit = 0;
  int slot = -1;  ///< the warp's slot that carries the request (-1: inactive)
  /// The first thread of the warp with the same address, whose request this one merged into
  /// (NMI Sect. II: equal addresses are one request).
  std::optional<ThreadId> merged_with;
  std::vector<std::int64_t> cell;  ///< the matrix cell, when the access was posed through a layout
  // With element widths, vectors or atomics (AccessShape other than one word read):
  std::uint64_t first_byte = 0, last_byte = 0;  ///< the bytes the thread asks for
  std::vector<std::uint64_t> words;             ///< DMM: its 4-byte words; UMM: its address groups
  std::vector<int> word_slots;                  ///< the slot that carries each of them
  int phase = -1;                               ///< DMM: the phase that serves it
};

/// One warp's access, explained: which request goes to which bank or group and slot.
struct WarpView {
  std::vector<ThreadRequest> threads;  ///< in thread order
  /// DMM: the distinct requests in bank b, for every bank 0 .. w-1. UMM: (group, distinct requests)
  /// for every group the warp touches, in slot order.
  std::vector<std::pair<std::uint64_t, int>> per_unit;
  int slots = 0;
  int congestion = 0;                          ///< DMM: max over banks of distinct requests
  std::vector<std::uint64_t> congested_banks;  ///< DMM: the banks that reach it
  // With a shape: the phases (threads per phase, doubled when every pair fused) and their slots.
  std::uint32_t phase_threads = 0;
  bool fused_pairs = false;
  std::vector<int> phase_slots;
};

/// A warp's access in the GPU's global memory (`mmsim access --model umm --sectors`): the sectors
/// and 128-byte lines its bytes touch, as the predictor's coalescer counts them
/// (models/gpu_memory/coalescer.h), beside the papers' address groups. Not from the papers: how
/// CUDA programmers are taught coalescing.
struct SectorTouched {
  std::uint64_t sector = 0, line = 0;  ///< byte / kSectorBytes, byte / 128
  std::uint32_t bytes_used = 0;        ///< the bytes of it the warp asks for
  std::vector<ThreadId> threads;       ///< the threads that ask for them, in order
};
struct WarpSectors {
  std::vector<SectorTouched> sectors;                      ///< in the order of their first thread
  std::vector<std::uint64_t> lines;                        ///< the lines touched, in the same order
  std::vector<std::vector<std::uint64_t>> thread_sectors;  ///< per thread (empty: inactive)
  std::uint64_t bytes_asked = 0;                           ///< distinct bytes the warp asks for
  std::uint64_t ideal_sectors = 0;  ///< ceil(bytes_asked / kSectorBytes): the fewest that hold them
  std::uint64_t ideal_lines = 0;    ///< ceil(bytes_asked / 128)
  /// Sector transactions: the sectors, or for an atomic as many a sector as the most threads on one
  /// of its addresses (WarpRequest::transactions).
  std::uint64_t transactions = 0;
};
/// The sector of the GPU-like memory (GpuMemoryParams's default, an NVIDIA GPU's L1/L2 sector).
inline constexpr std::uint32_t kSectorBytes = 32;

struct AccessResult {
  MachineParams machine;
  /// What each thread moves: one 4-byte word read (the papers' access) unless given otherwise.
  AccessShape shape;
  Op op = Op::Read;
  std::vector<std::vector<Address>> warps;  ///< each of exactly w entries (or fewer for a last warp)
  std::vector<int> slots;                   ///< per warp
  TimeUnits time_units = 0;
  std::vector<SlotEvent> trace;
  std::vector<WarpView> views;       ///< per warp
  std::string posed;                 ///< how the access was posed, one line, for the header
  std::string layout;                ///< the layout and its random numbers, when posed through one
  std::vector<WarpSectors> sectors;  ///< per warp, after add_sectors() (empty: the view not asked)
};

/// Runs one memory instruction in which warp j presents warps[j] (kNoAddress: inactive thread;
/// a warp shorter than w ends with threads that do not exist) and annotates it. `cells`, when not
/// empty, holds each thread's matrix cell (warp-major, like `warps`).
AccessResult simulate_access(const MachineParams& machine, const std::vector<std::vector<Address>>& warps,
                             const std::vector<std::vector<std::int64_t>>& cells = {});

/// The same for an access of another shape (docs/model.md, "Real accesses"): elements of
/// `shape.element_bytes`, `shape.vector` of them per thread, and `op` (an atomic's update in
/// `shape.atomic`). An access that is not one 4-byte word read runs with the widths and atomics
/// extensions on, and the view shows each thread's bytes, words, banks, phase and slots.
AccessResult simulate_access(const MachineParams& machine, const std::vector<std::vector<Address>>& warps,
                             const std::vector<std::vector<std::int64_t>>& cells, const AccessShape& shape, Op op);

/// Adds the sector view (WarpSectors) of every warp of a UMM access: the access as the GPU's global
/// memory coalesces it. diagram() and to_json() then show it after the address groups; without it
/// they print what they always printed. Throws InputError naming --sectors on a DMM (shared memory
/// has banks, not sectors).
void add_sectors(AccessResult& r);
/// The sector view as an SVG picture: per warp, each line it touches as 128 bytes in 4 sectors,
/// the sectors it moves shaded and the bytes it asks for marked with their threads.
std::string sector_svg(const AccessResult& r);

/// True when the access is the papers' one (one 4-byte word read): the view of KNI Fig. 2.
bool plain_access(const AccessShape& shape, Op op);

/// The annotated text: per warp its requests in thread order with address, bank or group, slot and
/// merges, its per-bank or per-group counts and what sets its slots; then the slot table and the
/// pipeline diagram (which stage each slot occupies at each time unit), when it fits on a screen.
std::string diagram(const AccessResult& r);

/// The same facts as one JSON object (docs/tutorial.md lists the keys).
report::Json to_json(const AccessResult& r);

/// A slot's name in diagrams: a, b, ..., z, then numbers for the 27th slot on ("26").
std::string slot_name(int slot, bool numeric);

}  // namespace mmsim::teaching
