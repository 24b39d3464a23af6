# Turns a text file into a C++ source defining kumo::detail::prelude_source().
file(READ ${INPUT} content)
# FUNCTION names the accessor (default prelude_source, the kernel prelude).
if(NOT FUNCTION)
  set(FUNCTION prelude_source)
endif()
# Split into chunks: string literals have a length limit on some compilers.
string(LENGTH "${content}" len)
set(out "// Generated from the kernel prelude; do not edit.\n#include <string>\nnamespace kumo { namespace detail {\nconst std::string& ${FUNCTION}() {\n  static const std::string s = std::string()")
set(pos 0)
while(pos LESS len)
  string(SUBSTRING "${content}" ${pos} 8000 chunk)
  set(out "${out}\n    + std::string(R\"KUMOPRELUDE(${chunk})KUMOPRELUDE\")")
  math(EXPR pos "${pos} + 8000")
endwhile()
set(out "${out};\n  return s;\n}\n}}  // namespace kumo::detail\n")
file(WRITE ${OUTPUT} "${out}")
