# The layering of lib/ is enforced by the build (lib/CMakeLists.txt,
# dispatchctl_layer): an include of a folder above is a compile error. These
# tests compile two probes with lib/registry's include root: its own and lower
# folders compile, the torchgen layer above is not found.
get_property(registry_include_dirs GLOBAL PROPERTY DISPATCHCTL_INCLUDE_DIRS_registry)
set(layer_flags -std=c++20 -fsyntax-only)
foreach(dir ${registry_include_dirs})
  list(APPEND layer_flags -I${dir})
endforeach()
add_test(NAME layers_own_and_lower_folders_compile
         COMMAND ${CMAKE_CXX_COMPILER} ${layer_flags} ${CMAKE_CURRENT_LIST_DIR}/own_layer.cpp)
add_test(NAME layers_upward_include_is_a_compile_error
         COMMAND ${CMAKE_CXX_COMPILER} ${layer_flags} ${CMAKE_CURRENT_LIST_DIR}/upward_include.cpp)
set_tests_properties(layers_upward_include_is_a_compile_error PROPERTIES
                     # gcc: "torchgen/apply.h: No such file or directory"; clang: "'torchgen/apply.h' file not found"
                     PASS_REGULAR_EXPRESSION "torchgen/apply\\.h(: No such file or directory|' file not found)")
