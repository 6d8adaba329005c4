// The one writer of the registry: an algorithm entry with its typed parameters as JSON, for
// `mmsim list --json` and the Python module's mmsim.algorithms(). Its keys are in docs/library.md.
#pragma once

#include "algorithms/registry.h"
#include "report/json.h"

namespace mmsim {

/// "integer", "choice", "text", "flag" or "matrix".
const char* kind_name(ParamKind k);
/// name, flags, type, default (as typed on the command line, or null), required, rule, help, and
/// min / max for integers, choices for choices.
report::Json to_json(const ParamSpec& s);
/// name, family, paper, machine, description, asynchronous, traces, parameters.
report::Json to_json(const AlgorithmEntry& a);

}  // namespace mmsim
