# Turns a data file (-DINPUT=...) into a C++ function returning its text (-DFUNCTION=bb::name,
# -DOUTPUT=...cpp), so the binary carries the file and needs nothing installed beside it.
# Invoked at build time: a change to the file rebuilds only this one source.
file(READ "${INPUT}" text)
string(FIND "${text}" ")bbtext\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw string's delimiter )bbtext\"")
endif()
file(WRITE "${OUTPUT}.tmp"
"// Generated from ${INPUT} by cmake/embed_text.cmake. Do not edit.
#include <string_view>

namespace bb {

std::string_view ${FUNCTION}() {
    return R\"bbtext(${text})bbtext\";
}

} // namespace bb
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
file(REMOVE "${OUTPUT}.tmp")
