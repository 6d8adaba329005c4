// `mmsim access`: the slots and time of a few warps' accesses on a DMM or a UMM, with the pipeline
// diagram of KNI Fig. 2.
#include <algorithm>
#include <charconv>
#include <sstream>

#include "cli/common.h"
#include "experiments/access.h"

namespace mmsim::cli {

namespace {

// "7,5,15,0" -> addresses; "-" or an empty field is a thread that requests nothing.
std::vector<Address> parse_warp(const std::string& text, std::size_t index) {
  std::vector<Address> out;
  std::stringstream in(text);
  std::string field;
  while (std::getline(in, field, ',')) {
    const auto b = field.find_first_not_of(' ');
    const auto e = field.find_last_not_of(' ');
    const std::string f = b == std::string::npos ? "" : field.substr(b, e - b + 1);
    if (f.empty() || f == "-") {
      out.push_back(kNoAddress);
      continue;
    }
    Address a = 0;
    const auto [ptr, ec] = std::from_chars(f.data(), f.data() + f.size(), a);
    if (ec != std::errc{} || ptr != f.data() + f.size() || a >= (Address{1} << 24))
      throw InputError("--warp: warp " + std::to_string(index) + ": '" + f + "' is not an address (0 .. 16777215, or - for none)");
    out.push_back(a);
  }
  if (!text.empty() && text.back() == ',') out.push_back(kNoAddress);
  return out;
}

}  // namespace

Runner add_access_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("access", "slots and time units of warp accesses on a DMM or UMM (KNI Fig. 2)");
  struct Opts {
    std::string model = "dmm";
    int w = 4;
    int l = 5;
    std::vector<std::string> warps;
    bool json = false;
  };
  auto o = std::make_shared<Opts>();
  cmd->add_option("--model", o->model, "dmm or umm")->capture_default_str();
  cmd->add_option("-w,--width", o->w, "width")->capture_default_str();
  cmd->add_option("-l,--latency", o->l, "latency of the memory")->capture_default_str();
  cmd->add_option("--warp", o->warps, "addresses of one warp, comma separated (- for an idle thread); repeat per warp")
      ->required()
      ->take_all()
      ->allow_extra_args(false);
  cmd->add_flag("--json", o->json, "print one JSON object");
  return [o] {
    MachineParams m;
    if (o->model == "dmm") m.model = ModelKind::Dmm;
    else if (o->model == "umm") m.model = ModelKind::Umm;
    else throw InputError("--model: must be dmm or umm (got '" + o->model + "')");
    m.w = o->w;
    m.l = o->l;
    if (auto err = m.validate()) throw InputError(*err);
    std::vector<std::vector<Address>> warps;
    for (std::size_t i = 0; i < o->warps.size(); ++i) {
      warps.push_back(parse_warp(o->warps[i], i));
      if (warps.back().size() > static_cast<std::size_t>(m.w))
        throw InputError("--warp: warp " + std::to_string(i) + " has " + std::to_string(warps.back().size()) +
                         " addresses, more than w = " + std::to_string(m.w));
    }
    const auto result = experiments::simulate_access(m, warps);
    if (o->json) print_json(experiments::to_json(result));
    else std::cout << experiments::diagram(result);
    return kOk;
  };
}

}  // namespace mmsim::cli
