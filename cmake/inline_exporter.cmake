# cmake -DSOURCE=tools/dispatchctl-export.py -DPACKAGE_DIR=tools/dispatchctl_exporter
#       -DOUTPUT=FILE -P inline_exporter.cmake
# Writes the exporter as the one script dispatchctl embeds, installs and users
# copy into chroots: SOURCE with each `from dispatchctl_exporter.M import …`
# replaced by M.py (its own such imports inlined first, each module once).
# The script runs in a user's Python, so it must stay one file that needs
# nothing beside it; developers still edit and run the modules as a package.
cmake_minimum_required(VERSION 3.22)

function(inline_imports text origin out)
  set(result "")
  set(text "\n${text}")
  while(TRUE)
    string(REGEX MATCH "\n(from|import)[ \t]+dispatchctl_exporter[^\n]*" line "${text}")
    if(line STREQUAL "")
      break()
    endif()
    string(FIND "${text}" "${line}" at)
    string(LENGTH "${line}" length)
    string(SUBSTRING "${text}" 0 ${at} before)
    math(EXPR after_at "${at} + ${length}")
    string(SUBSTRING "${text}" ${after_at} -1 text)
    string(APPEND result "${before}")
    if(NOT line MATCHES "^\nfrom dispatchctl_exporter\\.([a-z_]+) import [A-Za-z_][A-Za-z0-9_, ]*$")
      string(STRIP "${line}" line)
      message(FATAL_ERROR "${origin}: '${line}': the build inlines only one-line "
                          "'from dispatchctl_exporter.MODULE import NAME, NAME' imports")
    endif()
    set(module ${CMAKE_MATCH_1})
    get_property(inlined GLOBAL PROPERTY dispatchctl_inlined_modules)
    if(NOT module IN_LIST inlined)
      set_property(GLOBAL APPEND PROPERTY dispatchctl_inlined_modules ${module})
      set(path ${PACKAGE_DIR}/${module}.py)
      if(NOT EXISTS ${path})
        message(FATAL_ERROR "${origin}: imports dispatchctl_exporter.${module}, but ${path} does not exist")
      endif()
      file(READ ${path} module_text)
      inline_imports("${module_text}" ${path} module_text)
      string(APPEND result "\n\n# ---- tools/dispatchctl_exporter/${module}.py (inlined by the build)\n"
                           "${module_text}")
    endif()
  endwhile()
  string(APPEND result "${text}")
  string(SUBSTRING "${result}" 1 -1 result)
  set(${out} "${result}" PARENT_SCOPE)
endfunction()

file(READ ${SOURCE} script)
inline_imports("${script}" ${SOURCE} script)
file(WRITE ${OUTPUT} "${script}")
