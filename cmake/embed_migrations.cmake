# Turns db/migrations/NNNN_name.sql into a C++ table so the binary carries its own schema.
# Invoked at build time with -DSOURCE_DIR=... -DOUTPUT=...
file(GLOB migrations "${SOURCE_DIR}/*.sql")
list(SORT migrations)
set(body "")
foreach(file IN LISTS migrations)
  get_filename_component(name "${file}" NAME_WE)
  string(REGEX MATCH "^[0-9]+" number "${name}")
  math(EXPR number "${number} + 0")
  file(READ "${file}" sql)
  string(APPEND body "    {${number}, \"${name}\", R\"bbsql(${sql})bbsql\"},\n")
endforeach()
file(WRITE "${OUTPUT}.tmp"
"// Generated from db/migrations by cmake/embed_migrations.cmake. Do not edit.
#include \"store/migrations.h\"

namespace bb {

const std::vector<Migration>& bundled_migrations() {
    static const std::vector<Migration> k_migrations{
${body}    };
    return k_migrations;
}

} // namespace bb
")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUTPUT}.tmp" "${OUTPUT}")
file(REMOVE "${OUTPUT}.tmp")
