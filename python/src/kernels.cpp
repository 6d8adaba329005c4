// Kernels of one's own, from Python: a machine (model, w, l, L, k), an engine holding its arrays,
// and kernels whose memory instructions are NumPy arrays of per-thread addresses (a negative entry:
// the thread requests nothing), run by mmsim's engine in either execution mode. The engine reads
// the address arrays where they lie (no copy for int64 arrays, contiguous or strided), and a global
// array is handed to Python as a NumPy view of the engine's own cells.
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <new>
#include <string>
#include <variant>
#include <vector>

#include "algorithms/registry.h"
#include "algorithms/run_output.h"
#include "io/input_error.h"
#include "io/quote.h"
#include "io/work_bounds.h"
#include "kernels/kernel_file.h"
#include "models/machines.h"
#include "predict/kernel_prediction.h"
#include "python/src/bindings.h"
#include "report/table.h"
#include "sim/engine.h"

namespace mmsim::python {

namespace {

struct PyMachine;
class PyKernel;
class PyEngine;

// The object a method is called on, or an object passed to one (Engine(machine), launch(kernel)).
// One made with __new__ and never initialised (Machine.__new__(Machine), copy.copy of one, a
// subclass whose __init__ skips the base's) has no C++ value: pybind11 2.10 hands such an object
// to a method as freshly allocated, unconstructed memory, so a method would read garbage and crash
// the interpreter. An argument of type Initialised<T> is loaded by the caster below, which checks
// that the object's holder was constructed and otherwise raises TypeError naming the class.
const char* class_name(const PyMachine*) { return "Machine"; }
const char* class_name(const PyKernel*) { return "Kernel"; }
const char* class_name(const PyEngine*) { return "Engine"; }

template <typename T>
struct Initialised {
  T* p = nullptr;
  T& operator*() const { return *p; }
  T* operator->() const { return p; }
};

// A method as a function of its checked object.
template <typename C, typename R, typename... A>
auto checked(R (C::*f)(A...)) {
  return [f](Initialised<C> self, A... a) -> R { return ((*self).*f)(std::forward<A>(a)...); };
}
template <typename C, typename R, typename... A>
auto checked(R (C::*f)(A...) const) {
  return [f](Initialised<C> self, A... a) -> R { return ((*self).*f)(std::forward<A>(a)...); };
}

}  // namespace
}  // namespace mmsim::python

namespace pybind11::detail {
template <typename T>
struct type_caster<mmsim::python::Initialised<T>> {
  PYBIND11_TYPE_CASTER(mmsim::python::Initialised<T>, make_caster<T>::name);
  bool load(handle src, bool convert) {
    if (!isinstance<T>(src)) return false;  // not a T at all: pybind11's own TypeError
    auto* inst = reinterpret_cast<instance*>(src.ptr());
    const value_and_holder vh = inst->get_value_and_holder(get_type_info(typeid(T)), false);
    if (!vh || !vh.holder_constructed()) {
      const char* name = mmsim::python::class_name(static_cast<const T*>(nullptr));
      throw type_error(std::string(name) + ": made with __new__ and never initialised (call " + name +
                       "(...) instead)");
    }
    make_caster<T> base;
    if (!base.load(src, convert)) return false;
    value.p = cast_op<T*>(base);
    return value.p != nullptr;
  }
};
}  // namespace pybind11::detail

namespace mmsim::python {
namespace {

/// int64: the dtype NumPy gives integer arrays, so the engine reads them without a copy.
using Addresses = py::array_t<std::int64_t, py::array::forcecast>;
using Values = py::array_t<Word, py::array::forcecast>;
/// An array named by the id add_array returned or by its name.
using ArrayRef = std::variant<std::int64_t, std::string>;

// Runs are capped as `mmsim run` caps them (README: at most 2^28 threads or cells).
constexpr std::int64_t kMaxThreads = std::int64_t{1} << 28;
constexpr std::int64_t kMaxCells = std::int64_t{1} << 32;

struct PyMachine {
  std::shared_ptr<const Machine> machine;

  PyMachine(const std::string& model, std::int64_t w, std::int64_t l, std::int64_t L, std::int64_t k,
            const std::vector<std::string>& extensions) {
    MachineParams p;
    for (const std::string& e : extensions) {
      if (e == "widths")
        p.extensions.widths = true;
      else if (e == "atomics")
        p.extensions.atomics = true;
      else
        throw InputError("extensions: widths and atomics (got " + quote(e) + ")");
    }
    const auto kind = model_from_name(model);
    if (!kind) throw InputError("model=: must be dmm, umm or hmm (got " + quote(model) + ")");
    p.model = *kind;
    // The command's rules for the machine (algorithms/registry.h: k <= 4096, latencies <= 2^20),
    // named by the keyword; L and k only where the model has them.
    const std::int64_t given[] = {w, l, L, k};
    const char* const names[] = {"w", "l", "L", "k"};
    for (const ParamSpec& spec : machine_params(*kind))
      for (std::size_t i = 0; i < std::size(names); ++i)
        if (spec.name == names[i])
          if (const auto err = integer_error(given[i], spec)) throw InputError(spec.name + "=: " + *err);
    p.w = saturate(w), p.l = saturate(l), p.L = saturate(L), p.k = saturate(k);
    if (auto err = p.validate()) throw InputError(*err);
    machine = std::make_shared<const Machine>(p);
  }
  const MachineParams& params() const { return machine->params(); }
};

// A NumPy array (or anything numpy.asarray takes) of whole numbers in [lo, hi], as int64: an
// integer dtype as it is, a float dtype only where every entry is a finite whole number; a
// fraction, NaN, inf, a bool, text or an object is refused, naming the argument and the entry.
template <typename T>
py::array_t<T> whole_numbers(const py::handle& given, const std::string& where, const char* argument, std::int64_t lo,
                             std::int64_t hi) {
  const py::module_ numpy = py::module_::import("numpy");
  py::array a;
  try {
    a = numpy.attr("asarray")(given);
  } catch (const py::error_already_set&) {
    throw InputError(where + argument + "=: must be an array of integers");
  }
  const char kind = a.dtype().kind();
  const std::string at = where + argument + "=: ";
  if (kind != 'i' && kind != 'u' && kind != 'f')
    throw InputError(at + "must be an array of integers (got dtype " + quote(py::str(a.dtype()).cast<std::string>()) +
                     ")");
  if (a.ndim() != 1) throw InputError(at + "must be one 1-D array (got " + std::to_string(a.ndim()) + " dimensions)");
  // Every entry through double (exact for the integers a run can use, |x| <= 2^53) and, for an
  // unsigned 64-bit dtype, through its own type, so that nothing wraps before it is checked.
  const auto doubles = py::array_t<double, py::array::forcecast>::ensure(a);
  const auto d = doubles.unchecked<1>();
  for (py::ssize_t i = 0; i < d.shape(0); ++i) {
    const double x = d(i);
    const std::string entry = "entry " + std::to_string(i);
    if (!std::isfinite(x)) throw InputError(at + entry + " is " + (std::isnan(x) ? "NaN" : "infinite"));
    if (x != std::floor(x)) throw InputError(at + entry + " is not a whole number (" + report::format_number(x) + ")");
    if (x < static_cast<double>(lo) || x > static_cast<double>(hi))
      throw InputError(at + entry + " is " + report::format_number(x, 17) + ", outside [" + std::to_string(lo) + ", " +
                       std::to_string(hi) + "]");
  }
  return py::array_t<T, py::array::forcecast>::ensure(a);
}

struct StepSpec {
  enum class Kind { Access, Set, Barrier } kind = Kind::Barrier;
  std::string name;
  Op op = Op::Read;
  ArrayRef array;
  int reg = 0;
  Addresses addresses;
  Values values;
  AtomicOp atomic = AtomicOp::None;
  int result = -1;
  std::uint32_t instructions = 0;  ///< declared warp instructions besides the memory instruction
};

class PyKernel {
 public:
  PyKernel(std::string name, std::int64_t blocks, std::int64_t threads_per_block, std::int64_t registers,
           std::int64_t resident_blocks_per_dmm)
      : name_(std::move(name)) {
    if (blocks < 1 || threads_per_block < 1 || blocks > kMaxThreads / threads_per_block)
      fail("blocks and threads_per_block must be >= 1 with blocks x threads_per_block at most 2^28");
    if (registers < 1 || registers > 256) fail("registers must be in [1, 256]");
    if (resident_blocks_per_dmm < 0 || resident_blocks_per_dmm > blocks)
      fail("resident_blocks_per_dmm must be in [0, blocks] (0: every block resident)");
    blocks_ = static_cast<std::uint64_t>(blocks);
    threads_per_block_ = static_cast<std::uint32_t>(threads_per_block);
    registers_ = static_cast<int>(registers);
    resident_ = static_cast<std::uint32_t>(resident_blocks_per_dmm);
  }

  // A step's addresses: negative, the thread requests nothing; the upper end is the largest cell an
  // array may have.
  Addresses step_addresses(const py::object& given, const std::string& step) const {
    return whole_numbers<std::int64_t>(given, "kernel " + shown_name(name_) + ": step " + shown_name(step) + ": ",
                                       "addresses", std::numeric_limits<std::int32_t>::min(), kMaxCells - 1);
  }
  void access(Op op, const ArrayRef& array, const py::object& given, std::int64_t reg, std::string name,
              std::int64_t instructions) {
    name = step_name(std::move(name), op, array);
    const Addresses addresses = step_addresses(given, name);
    StepSpec s{StepSpec::Kind::Access, std::move(name), op, array, check_reg(reg), addresses, {}, AtomicOp::None, -1};
    s.instructions = check_instructions(instructions);
    check_length(s.name, addresses, "addresses");
    steps_.push_back(std::move(s));
  }
  void atomic(const ArrayRef& array, const py::object& given, const std::string& op, std::int64_t reg,
              std::int64_t result, std::string name, std::int64_t instructions) {
    const AtomicOp a = kernels::atomic_op_named(op).value_or(AtomicOp::None);
    if (a == AtomicOp::None) fail("atomic: op must be add, min, max, exch, cas or increment (got " + quote(op) + ")");
    name = step_name(std::move(name), Op::Atomic, array);
    const Addresses addresses = step_addresses(given, name);
    StepSpec s{StepSpec::Kind::Access,
               std::move(name),
               Op::Atomic,
               array,
               check_reg(reg),
               addresses,
               {},
               a,
               result < 0 ? -1 : check_reg(result)};
    s.instructions = check_instructions(instructions);
    if (a == AtomicOp::CompareAndSwap) check_reg(reg + 1);
    check_length(s.name, addresses, "addresses");
    steps_.push_back(std::move(s));
  }
  void set(std::int64_t reg, const py::object& given, std::string name, std::int64_t instructions) {
    if (name.empty()) name = "set r" + std::to_string(reg);
    const Values values =
        whole_numbers<Word>(given, "kernel " + shown_name(name_) + ": step " + shown_name(name) + ": ", "values", 0,
                            std::numeric_limits<Word>::max());
    StepSpec s{StepSpec::Kind::Set,
               std::move(name),
               Op::Read,
               std::int64_t{0},
               check_reg(reg),
               {},
               values,
               AtomicOp::None,
               -1};
    s.instructions = check_instructions(instructions);
    check_length(s.name, values, "values");
    steps_.push_back(std::move(s));
  }
  void barrier() {
    steps_.push_back({StepSpec::Kind::Barrier, "barrier", Op::Read, std::int64_t{0}, 0, {}, {}, AtomicOp::None, -1});
  }

  /// The engine's kernel, its array names resolved by `resolve`. Every step reads the NumPy arrays
  /// in place: they must outlive the launch (this object holds them).
  template <typename Resolve>
  Kernel build(const Resolve& resolve) const {
    Kernel k{name_, blocks_, threads_per_block_, registers_, {}, resident_};
    for (const auto& s : steps_) {
      if (s.kind == StepSpec::Kind::Barrier) {
        k.steps.emplace_back(BlockBarrier{});
      } else if (s.kind == StepSpec::Kind::Set) {
        k.steps.emplace_back(Compute{[v = s.values.unchecked<1>(), r = s.reg](const Thread& t) {
          t.set(r, v(static_cast<py::ssize_t>(t.id())));
        }});
      } else {
        const ArrayId id = resolve(s.array, shown_name(name_) + ": step " + shown_name(s.name));
        k.steps.emplace_back(Access{.name = s.name,
                                    .op = s.op,
                                    .array = id,
                                    .reg = s.reg,
                                    .address =
                                        [a = s.addresses.unchecked<1>()](const Thread& t) {
                                          const std::int64_t x = a(static_cast<py::ssize_t>(t.id()));
                                          return x < 0 ? kNoAddress : static_cast<Address>(x);
                                        },
                                    .vector = 1,
                                    .atomic = s.atomic,
                                    .result = s.result});
      }
    }
    return k;
  }

  const std::string& name() const { return name_; }
  /// The kernel's name and its steps' names, for with_names_shown (io/quote.h).
  std::vector<std::string> names() const {
    std::vector<std::string> out{name_};
    for (const auto& s : steps_) out.push_back(s.name);
    return out;
  }
  std::uint64_t threads() const { return blocks_ * threads_per_block_; }
  std::uint64_t blocks() const { return blocks_; }
  std::uint32_t threads_per_block() const { return threads_per_block_; }
  int registers() const { return registers_; }
  std::size_t steps() const { return steps_.size(); }
  /// What the instruction term prices of one launch (predict/kernel_prediction.h); `shared` says
  /// whether an array is a shared one.
  template <typename Shared>
  predict::KernelWork work(const Shared& shared) const {
    predict::KernelWork w{.blocks = blocks_, .threads_per_block = threads_per_block_};
    for (const auto& s : steps_) {
      w.declared += s.instructions;
      if (s.kind != StepSpec::Kind::Access) continue;
      w.memory_steps += 1;
      w.shared_steps += shared(s.array);
    }
    return w;
  }
  /// Its memory steps: the rounds of one launch.
  std::size_t rounds() const {
    return static_cast<std::size_t>(std::count_if(steps_.begin(), steps_.end(),
                                                  [](const StepSpec& s) { return s.kind == StepSpec::Kind::Access; }));
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError("kernel " + shown_name(name_) + ": " + what);
  }
  std::uint32_t check_instructions(std::int64_t n) const {
    if (n < 0 || n > kernels::kMaxStepInstructions)
      fail("instructions must be in [0, " + std::to_string(kernels::kMaxStepInstructions) + "] (got " +
           std::to_string(n) + ")");
    return static_cast<std::uint32_t>(n);
  }
  int check_reg(std::int64_t reg) const {
    if (reg < 0 || reg >= registers_)
      fail("register " + std::to_string(reg) + " outside 0 .. " + std::to_string(registers_ - 1) +
           " (give the kernel more registers)");
    return static_cast<int>(reg);
  }
  static std::string step_name(std::string name, Op op, const ArrayRef& array) {
    if (!name.empty()) return name;
    const auto* s = std::get_if<std::string>(&array);
    return std::string(to_string(op)) + " " + (s ? *s : "array " + std::to_string(std::get<std::int64_t>(array)));
  }
  template <typename A>
  void check_length(const std::string& step, const A& a, const char* what) const {
    if (a.ndim() != 1 || static_cast<std::uint64_t>(a.shape(0)) != threads())
      fail("step " + shown_name(step) + ": " + what + " must be one 1-D array of blocks x threads_per_block = " +
           std::to_string(threads()) + " entries, one per thread");
  }

  std::string name_;
  std::uint64_t blocks_ = 1;
  std::uint32_t threads_per_block_ = 1;
  int registers_ = 1;
  std::uint32_t resident_ = 0;
  std::vector<StepSpec> steps_;
};

report::Json stats_json(const RunStats& s) {
  using report::Json;
  Json kernels = Json::array();
  for (const auto& k : s.kernels) kernels.push(Json::object().set("name", k.name).set("time_units", k.time_units));
  Json rounds = Json::array();
  for (const auto& r : s.rounds) rounds.push(mmsim::to_json(r));
  return Json::object()
      .set("time_units", s.time_units)
      .set("kernels", std::move(kernels))
      .set("rounds", std::move(rounds));
}

class PyEngine {
 public:
  PyEngine(const PyMachine& m, const std::string& execution, bool trace, std::int64_t threads)
      : machine_(m.machine),
        engine_(machine_->view(), EngineOptions{.execution = parse_execution(execution),
                                                .trace = trace,
                                                .threads = host_threads(threads),
                                                .chunk_warps = 0}) {}

  std::int64_t add_array(const std::string& name, const std::string& space, std::int64_t size) {
    check_idle("add_array");
    Space sp = Space::Global;
    if (space == "shared")
      sp = Space::Shared;
    else if (space != "global")
      throw InputError("add_array: space must be global or shared (got " + quote(space) + ")");
    if (size < 1 || size > kMaxCells)
      throw InputError("add_array: size must be in [1, 2^32] (got " + std::to_string(size) + ")");
    for (const auto& n : names_)
      if (n == name) throw InputError("add_array: an array named " + quote(name) + " exists already");
    // A global array is allocated now: estimated first, with every global array before it, as
    // `mmsim run` estimates a run (io/work_bounds.h), so that a size that cannot fit is an
    // InputError at once rather than a MemoryError (or the machine swapping) half-way.
    const auto cells = static_cast<std::uint64_t>(size);
    if (sp == Space::Global)
      check_memory(
          "add_array",
          "size=" + std::to_string(size) + " (global cells added so far: " + std::to_string(global_cells_) + ")",
          (global_cells_ + cells) * sizeof(Word));
    try {
      engine_.add_array({name, sp, cells});
    } catch (const std::invalid_argument& e) {  // the machine has no such memory
      throw InputError(e.what());
    } catch (const std::bad_alloc&) {
      throw InputError("add_array: size=" + std::to_string(size) + ": out of memory");
    }
    if (sp == Space::Global) global_cells_ += cells;
    names_.push_back(name);
    return static_cast<std::int64_t>(names_.size() - 1);
  }

  ArrayId resolve(const ArrayRef& ref, const std::string& where) const {
    if (const auto* id = std::get_if<std::int64_t>(&ref)) {
      if (*id < 0 || *id >= static_cast<std::int64_t>(names_.size()))
        throw InputError(where + ": no array " + std::to_string(*id));
      return static_cast<ArrayId>(*id);
    }
    const auto& name = std::get<std::string>(ref);
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == name) return static_cast<ArrayId>(i);
    throw InputError(where + ": no array named " + quote(name));
  }

  /// A writable view of the engine's cells of a global array, valid as long as `self` lives (the
  /// view keeps it alive): a global array never moves once added.
  static py::array global_array(py::object self, const ArrayRef& ref) {
    auto& e = *self.cast<Initialised<PyEngine>>();
    e.check_idle("global_array");
    const ArrayId id = e.resolve(ref, "global_array");
    if (e.engine_.array(id).space != Space::Global)
      throw InputError("global_array: " + shown_name(e.engine_.array(id).name) +
                       " is a shared array (use shared_array)");
    const std::span<Word> cells = e.engine_.global(id);
    return py::array_t<Word>({static_cast<py::ssize_t>(cells.size())}, {static_cast<py::ssize_t>(sizeof(Word))},
                             cells.data(), self);
  }

  /// A copy of block `block`'s shared array (shared arrays grow with the grid, so no view), for a
  /// block of a grid launched so far.
  py::array shared_array(const ArrayRef& ref, std::int64_t block) {
    check_idle("shared_array");
    const ArrayId id = resolve(ref, "shared_array");
    if (engine_.array(id).space != Space::Shared)
      throw InputError("shared_array: " + shown_name(engine_.array(id).name) + " is a global array (use global_array)");
    if (block < 0 || static_cast<std::uint64_t>(block) >= max_blocks_)
      throw InputError("shared_array: block must be in [0, " + std::to_string(max_blocks_) +
                       "), the blocks of the largest grid launched so far (got " + std::to_string(block) + ")");
    const std::span<Word> cells = engine_.shared(id, static_cast<std::uint64_t>(block));
    py::array_t<Word> out(static_cast<py::ssize_t>(cells.size()));
    std::copy(cells.begin(), cells.end(), out.mutable_data());
    return out;
  }

  py::object launch(Initialised<PyKernel> kernel) {
    const PyKernel& pk = *kernel;
    // One engine runs one kernel at a time: a second launch from another thread while one runs is
    // refused (documented in docs/library.md), never run on the same memories at once.
    check_idle("launch");
    // Shared arrays are made per block at launch: estimated as add_array estimates global ones.
    std::uint64_t shared_cells = 0;
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (engine_.array(static_cast<ArrayId>(i)).space == Space::Shared)
        shared_cells += engine_.array(static_cast<ArrayId>(i)).size;
    if (shared_cells > 0 && pk.blocks() > 0 &&
        shared_cells <= std::numeric_limits<std::uint64_t>::max() / sizeof(Word) / pk.blocks())
      check_memory("launch",
                   "kernel " + shown_name(pk.name()) + ": " + std::to_string(pk.blocks()) + " blocks x " +
                       std::to_string(shared_cells) + " shared cells",
                   (global_cells_ + shared_cells * pk.blocks()) * sizeof(Word));
    const Kernel k =
        pk.build([this](const ArrayRef& r, const std::string& where) { return resolve(r, "kernel " + where); });
    KernelStats s;
    busy_ = true;
    struct Idle {
      bool& busy;
      ~Idle() { busy = false; }
    } idle{busy_};
    {
      py::gil_scoped_release release;
      try {
        s = engine_.launch(k);
      } catch (const std::logic_error& e) {
        // What the engine calls an algorithm's bug (an address outside its array, threads per
        // block not a multiple of w) is here the user's input; the engine pastes names whole.
        std::vector<std::string> names = pk.names();
        names.insert(names.end(), names_.begin(), names_.end());
        throw InputError(with_names_shown(e.what(), names));
      } catch (const std::bad_alloc&) {
        throw InputError("launch: kernel " + shown_name(pk.name()) + ": out of memory");
      }
    }
    max_blocks_ = std::max(max_blocks_, k.blocks);
    launched_.push_back(pk);  // for predict(): the launches again, on the profile's machine
    py::dict d;
    d["name"] = s.name;
    d["time_units"] = s.time_units;
    return d;
  }

  py::object stats() const {
    check_idle("stats");
    return to_python(stats_json(engine_.stats()));
  }

  py::object trace() const {
    check_idle("trace");
    report::Json out = report::Json::array();
    for (const auto& e : engine_.trace()) {
      report::Json req = report::Json::array();
      for (Address a : e.requests) req.push(static_cast<unsigned long long>(a));
      out.push(report::Json::object()
                   .set("round", e.round)
                   .set("memory", mmsim::memory_name(e.memory))
                   .set("warp", static_cast<unsigned long long>(e.warp))
                   .set("slot", e.slot)
                   .set("enter", e.enter)
                   .set("complete", e.complete)
                   .set("requests", std::move(req)));
    }
    return to_python(out);
  }

  std::vector<std::string> arrays() const { return names_; }

  /// Every launch so far, again, on the profile's machine with the GPU-like global memory, priced
  /// as `mmsim predict` prices an algorithm (predict/kernel_prediction.h). A kernel's addresses are
  /// NumPy arrays, not data the threads loaded, so fresh arrays give the same accesses.
  py::object predict(const std::string& profile_path, const std::string& model, std::int64_t threads, bool exact,
                     std::int64_t sample_budget, std::int64_t sample_seed) const {
    check_idle("predict");
    const auto sampling = sampling_argument(exact, sample_budget, sample_seed);
    const predict::GpuProfile profile = read_profile_argument(profile_path);
    const MachineParams& mine = machine_->params();
    if (mine.model != ModelKind::Hmm)
      throw InputError(std::string("predict: a GPU prediction runs on the HMM, the GPU's model, not on the ") +
                       to_string(mine.model));
    if (mine.w != profile.machine.w)
      throw InputError("predict: the machine has w = " + std::to_string(mine.w) +
                       ", but the profile's GPU runs warps of w = " + std::to_string(profile.machine.w) + " threads");
    if (launched_.empty()) throw InputError("predict: the engine has launched no kernel yet");
    std::vector<std::size_t> rounds;
    for (const PyKernel& k : launched_) {
      if (k.threads_per_block() > predict::kMaxGpuThreadsPerBlock)
        throw InputError("predict: kernel " + shown_name(k.name()) +
                         ": threads_per_block = " + std::to_string(k.threads_per_block()) + ", more than the " +
                         std::to_string(predict::kMaxGpuThreadsPerBlock) + " threads of a CUDA block");
      rounds.push_back(k.rounds());
    }
    MachineParams on = profile.machine;
    on.extensions = mine.extensions;
    const Machine machine(on);
    std::vector<Kernel> kernels;
    for (const PyKernel& k : launched_)
      kernels.push_back(k.build([this](const ArrayRef& r, const std::string& where) { return resolve(r, where); }));
    const auto run = [&](const EngineOptions& options) {
      Engine e(machine.view(), options);
      for (std::size_t i = 0; i < names_.size(); ++i) e.add_array(engine_.array(static_cast<ArrayId>(i)));
      for (const Kernel& k : kernels) e.launch(k);
      return e.stats();
    };
    predict::ProgramPrediction p =
        predict::predict_launches(profile, "Python", model, run, rounds, host_threads(threads), sampling);
    std::vector<predict::KernelWork> work;
    for (const PyKernel& k : launched_)
      work.push_back(
          k.work([this](const ArrayRef& r) { return engine_.array(resolve(r, "predict")).space == Space::Shared; }));
    predict::price_instructions(p, profile, work);
    return to_python(predict::prediction_json(p));
  }

 private:
  // One engine runs one kernel at a time, and while it runs (the GIL released) another Python
  // thread may neither launch on it nor add an array (the launch's arrays would move under it) nor
  // read its statistics, trace or memories half-written: each is refused (docs/library.md), never
  // run at once with the launch. Checked with the GIL held, as busy_ is set and cleared.
  void check_idle(const char* what) const {
    if (busy_) throw InputError(std::string(what) + ": this engine is running a kernel (launched from another thread)");
  }
  static Execution parse_execution(const std::string& e) {
    if (e == "round-synchronous") return Execution::RoundSynchronous;
    if (e == "asynchronous") return Execution::Asynchronous;
    throw InputError("execution: must be round-synchronous or asynchronous (got " + quote(e) + ")");
  }

  std::shared_ptr<const Machine> machine_;  // the engine points into its memory models
  Engine engine_;
  std::vector<std::string> names_;
  bool busy_ = false;
  std::uint64_t max_blocks_ = 0;
  std::uint64_t global_cells_ = 0;
  std::vector<PyKernel> launched_;
};

}  // namespace

void bind_kernels(py::module_& m) {
  py::class_<PyMachine>(m, "Machine", "A DMM, UMM or HMM: model, width w, latency l, and for the HMM L and k.")
      .def(py::init<const std::string&, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                    const std::vector<std::string>&>(),
           py::arg("model") = "hmm", py::arg("w") = 32, py::arg("l") = 1, py::arg("L") = 100, py::arg("k") = 8,
           py::arg("extensions") = std::vector<std::string>{})
      .def_property_readonly("model",
                             [](Initialised<PyMachine> p) { return std::string(to_string(p->params().model)); })
      .def_property_readonly("w", [](Initialised<PyMachine> p) { return p->params().w; })
      .def_property_readonly("l", [](Initialised<PyMachine> p) { return p->params().l; })
      .def_property_readonly("L", [](Initialised<PyMachine> p) { return p->params().L; })
      .def_property_readonly("k", [](Initialised<PyMachine> p) { return p->params().k; })
      .def("__repr__", [](Initialised<PyMachine> self) {
        const auto& q = self->params();
        std::string s = "Machine('" + std::string(to_string(q.model)) + "', w=" + std::to_string(q.w) +
                        ", l=" + std::to_string(q.l);
        if (q.model == ModelKind::Hmm) s += ", L=" + std::to_string(q.L) + ", k=" + std::to_string(q.k);
        return s + ")";
      });

  py::class_<PyKernel>(m, "Kernel", "A grid of blocks of threads and its steps, in order.")
      .def(py::init<std::string, std::int64_t, std::int64_t, std::int64_t, std::int64_t>(), py::arg("name"),
           py::arg("blocks"), py::arg("threads_per_block"), py::arg("registers") = 1,
           py::arg("resident_blocks_per_dmm") = 0)
      .def(
          "read",
          [](Initialised<PyKernel> k, const ArrayRef& a, const py::object& x, std::int64_t reg, std::string name,
             std::int64_t instructions) { k->access(Op::Read, a, x, reg, std::move(name), instructions); },
          py::arg("array"), py::arg("addresses"), py::arg("reg") = 0, py::arg("name") = "", py::arg("instructions") = 0,
          "register reg <- array[addresses[t]] for every thread t (negative: no request); instructions: the warp "
          "instructions each warp issues here besides the load, priced by mmsim.predict")
      .def(
          "write",
          [](Initialised<PyKernel> k, const ArrayRef& a, const py::object& x, std::int64_t reg, std::string name,
             std::int64_t instructions) { k->access(Op::Write, a, x, reg, std::move(name), instructions); },
          py::arg("array"), py::arg("addresses"), py::arg("reg") = 0, py::arg("name") = "", py::arg("instructions") = 0,
          "array[addresses[t]] <- register reg for every thread t (negative: no request); instructions as for read")
      .def(
          "atomic",
          [](Initialised<PyKernel> k, const ArrayRef& a, const py::object& x, const std::string& op, std::int64_t reg,
             std::int64_t result, std::string name,
             std::int64_t instructions) { k->atomic(a, x, op, reg, result, std::move(name), instructions); },
          py::arg("array"), py::arg("addresses"), py::arg("op") = "add", py::arg("reg") = 0, py::arg("result") = -1,
          py::arg("name") = "", py::arg("instructions") = 0,
          "array[addresses[t]] <- op(array[addresses[t]], register reg) for every thread t, the old value into "
          "register result (if >= 0); a warp's threads update a cell lowest first (Machine(extensions=['atomics']))")
      .def("set", checked(&PyKernel::set), py::arg("reg"), py::arg("values"), py::arg("name") = "",
           py::arg("instructions") = 0,
           "register reg <- values[t]: local computation, free in time on the papers' machines; instructions: the "
           "warp instructions each warp issues for it, priced by mmsim.predict")
      .def("barrier", checked(&PyKernel::barrier), "__syncthreads(): a block barrier (asynchronous execution)")
      .def_property_readonly("name", checked(&PyKernel::name))
      .def_property_readonly("blocks", checked(&PyKernel::blocks))
      .def_property_readonly("threads_per_block", checked(&PyKernel::threads_per_block))
      .def_property_readonly("threads", checked(&PyKernel::threads))
      .def_property_readonly("registers", checked(&PyKernel::registers))
      .def("__len__", checked(&PyKernel::steps));

  py::class_<PyEngine>(m, "Engine", "The engine with its memories' contents; launches kernels one at a time.")
      .def(py::init([](Initialised<PyMachine> m, const std::string& execution, bool trace, std::int64_t threads) {
             return std::make_unique<PyEngine>(*m, execution, trace, threads);
           }),
           py::arg("machine"), py::arg("execution") = "round-synchronous", py::arg("trace") = false,
           py::arg("threads") = 0)
      .def("add_array", checked(&PyEngine::add_array), py::arg("name"), py::arg("space"), py::arg("size"),
           "a global array (once in the global memory) or a shared one (size cells per block); returns its id")
      .def("global_array", &PyEngine::global_array, py::arg("array"), "a writable NumPy view of a global array")
      .def("shared_array", checked(&PyEngine::shared_array), py::arg("array"), py::arg("block"),
           "a copy of one block's shared array")
      .def("launch", checked(&PyEngine::launch), py::arg("kernel"), "runs one kernel, then a grid barrier")
      .def("stats", checked(&PyEngine::stats), "time_units, kernels and rounds of every launch so far")
      .def("trace", checked(&PyEngine::trace), "every slot's entry and completion (Engine(..., trace=True))")
      .def_property_readonly("arrays", checked(&PyEngine::arrays))
      .def("_predict", checked(&PyEngine::predict), py::arg("profile"), py::arg("model"), py::arg("threads"),
           py::arg("exact"), py::arg("sample_budget"), py::arg("sample_seed"),
           "every launch so far on a GPU profile's machine (mmsim.predict)");
}

}  // namespace mmsim::python
