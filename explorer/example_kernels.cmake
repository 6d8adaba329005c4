# Writes OUT, the page's kernels.js: const EXAMPLE_KERNELS = {"NAME.json": the file's JSON, ...},
# from the kernel files DIR/*.json (examples/kernels/), so that the kernel view has kernels to run
# before one is dropped. Usage: cmake -DOUT=.../kernels.js -DDIR=.../examples/kernels -P example_kernels.cmake
set(text "// The example kernel files of examples/kernels/ (docs/kernel-files.md), written by\n")
string(APPEND text "// explorer/example_kernels.cmake when the page is built.\nconst EXAMPLE_KERNELS = {\n")
file(GLOB files "${DIR}/*.json")
list(SORT files)
foreach(file IN LISTS files)
  get_filename_component(name "${file}" NAME)
  file(READ "${file}" content)
  string(APPEND text "\"${name}\": ${content},\n")
endforeach()
string(APPEND text "};\n")
file(WRITE "${OUT}" "${text}")
