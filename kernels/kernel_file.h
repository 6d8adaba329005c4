// A kernel file: one program (a machine, arrays, kernels) as JSON, read into a ProgramSpec
// (kernel_spec.h). The format is docs/kernel-files.md's; examples are in examples/kernels/. Every
// key is checked: an unknown key, a value of the wrong kind or outside its rule is refused with
// one line naming the file, the place (kernel, step) and the rule.
//
//   {"machine": {"model": "hmm", "w": 32, "l": 1, "L": 100, "k": 8, "extensions": ["widths", "atomics"]},
//    "arrays": [{"name": "idx", "size": 1024, "init": {"random_below": 1024, "seed": 1}},
//               {"name": "a", "size": 1024, "init": "iota"}, {"name": "b", "size": 1024}],
//    "kernels": [{"name": "gather", "blocks": 4, "threads_per_block": 256, "registers": 2,
//                 "steps": [{"read": "idx", "address": "t", "reg": 0},
//                           {"read": "a", "address": "r0", "reg": 1},
//                           {"write": "b", "address": "t", "reg": 1}]}]}
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "kernels/kernel_spec.h"
#include "report/json_reader.h"

namespace mmsim::kernels {

/// The atomic update a kernel file (and the Python module) names: add, min, max, exch, cas or
/// increment; nullopt for any other word.
std::optional<AtomicOp> atomic_op_named(std::string_view name);

/// Parses a kernel file's text; `source` names it in messages. Throws InputError.
ProgramSpec parse_kernel_file(std::string_view text, const std::string& source);

/// The same for a description already read into values (the Python module's dict): every key and
/// rule checked as for a file.
ProgramSpec read_kernel_description(const report::JsonValue& doc, const std::string& source);

/// Opens `path` (a regular file of at most 16 MiB, io/input_file.h) for `option` and parses it.
ProgramSpec read_kernel_file(const std::string& option, const std::string& path);

}  // namespace mmsim::kernels
