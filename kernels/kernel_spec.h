// Folder kernels/ (target mmsim::kernels): kernels of one's own, as data. It owns one description
// of "this program on that machine" (this header) that a kernel file (kernel_file.h), the Python
// module and C++ share: the machine, named arrays (space, size, element size, initial values) and
// kernels whose steps read, write or atomically update an array at an address given as an
// expression of the thread (the language of `mmsim access --addr`, teaching/expression.h) and of
// registers that earlier steps loaded. It checks a description rule by rule, builds the engine's
// program from it and runs it. It may include sim/, models/, io/, report/, algorithms/ and teaching/
// (for the expression language).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/machines.h"
#include "sim/engine.h"
#include "teaching/expression.h"

namespace mmsim::kernels {

/// An array's initial values: all zero, 0, 1, 2, ... (iota), values drawn from a seeded generator
/// below a bound (random), or given one by one.
enum class ArrayInit : std::uint8_t { Zeros, Iota, Random, Values };

struct ArraySpec {
  std::string name;
  Space space = Space::Global;
  std::uint64_t size = 0;           ///< elements (shared: per block)
  std::uint32_t element_bytes = 4;  ///< 1, 2, 4, 8 or 16
  ArrayInit init = ArrayInit::Zeros;
  std::uint64_t random_below = 0;  ///< Random: values in [0, random_below) (0: any 32-bit value)
  std::uint64_t seed = 1;          ///< Random: the generator's seed
  std::vector<Word> values;        ///< Values: exactly `size` of them
};

enum class StepKind : std::uint8_t { Read, Write, Atomic, Set, Barrier };

/// A step's addresses given thread by thread instead of by an expression: what a traced run
/// recorded (kernels/trace_file.h). index[t] is the element index of thread t of the launch
/// (block x threads_per_block + local), or kInactive for a thread that makes no request.
struct ExplicitAddresses {
  static constexpr std::uint32_t kInactive = 0xFFFFFFFFu;
  std::vector<std::uint32_t> index;
};

/// One step. Read / Write / Atomic: `array` at `address`; registers as sim/program.h's Access says
/// (vector: reg .. reg + vector - 1). Set: register `reg` = `value` (free, as the papers' local
/// computation). Barrier: __syncthreads(). A read, write or atomic may give its addresses
/// explicitly (`addresses`, with `address` empty) and the bytes each thread moves (`access_bytes`:
/// the element size times `vector`; 0 says nothing).
struct StepSpec {
  StepKind kind = StepKind::Read;
  std::string name{};     ///< for reports; the kind and array when empty
  std::string array{};    ///< the array's name
  std::string address{};  ///< expression: t, i, j, w, p, lane, warp, r0.. and the kernel's register names
  std::string value{};    ///< Set: expression
  int reg = 0;
  std::uint32_t vector = 1;
  AtomicOp atomic = AtomicOp::None;
  int result = -1;
  std::shared_ptr<const ExplicitAddresses> addresses{};
  std::uint32_t access_bytes = 0;
  /// Warp instructions each warp issues in this step besides its memory instruction (the address's
  /// arithmetic, compares, branches; a Set step's computation): free on the papers' machines, priced
  /// by a GPU profile's instruction term (predict/kernel_prediction.h). 0: none declared.
  std::uint32_t instructions = 0;
};

/// The most warp instructions one step may declare.
inline constexpr std::uint32_t kMaxStepInstructions = 1u << 20;

struct KernelSpec {
  std::string name;
  std::uint64_t blocks = 1;
  std::uint32_t threads_per_block = 32;
  int registers = 1;
  std::vector<std::string> register_names;  ///< names for r0, r1, ...: usable in expressions
  std::uint32_t resident_blocks_per_dmm = 0;
  std::vector<StepSpec> steps;
};

struct ProgramSpec {
  std::string source;  ///< where it came from, for messages ("gather.json", "Python")
  MachineParams machine;
  std::vector<ArraySpec> arrays;
  std::vector<KernelSpec> kernels;
};

/// Limits that keep a description to what a run can afford (a file is a user's input).
inline constexpr std::uint64_t kMaxArrayElements = std::uint64_t{1} << 28;
inline constexpr std::uint64_t kMaxKernelThreads = std::uint64_t{1} << 28;
inline constexpr std::size_t kMaxSteps = 4096;
inline constexpr std::size_t kMaxArrays = 256;

/// Checks every rule a run needs and throws InputError with one line naming the source, the kernel,
/// the step and the rule ("gather.json: kernel gather, step 2 (read a): register r3 is past the
/// kernel's 2 registers"). Checked: names unique and known; sizes and element sizes; the machine;
/// each expression parses and names only registers the kernel has; vectors and atomics fit the
/// machine's extensions; the shared arrays fit in memory; the estimated memory of the run; explicit
/// addresses: one per thread of the launch, each inside its array, and the access size.
void validate(const ProgramSpec& p);

/// The run of a description: the engine's statistics and every global array's final values.
struct ProgramRun {
  RunStats stats;
  std::vector<std::pair<std::string, std::vector<Word>>> arrays;  ///< global arrays, by name
};

/// Validates, builds and runs the program. An address that falls outside its array at run time, or
/// an expression that cannot be evaluated for some thread, throws InputError naming the kernel, the
/// step and the thread.
ProgramRun run_program(const ProgramSpec& p, const EngineOptions& options = {});

}  // namespace mmsim::kernels
