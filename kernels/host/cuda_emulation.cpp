#include "kernels/host/cuda_emulation.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <boost/context/detail/fcontext.hpp>
#include <cctype>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <sstream>

#include "core/errors.h"
#include "kernels/host/host_compiler.h"
#include "kernels/kernel_cache.h"

namespace kumo {
namespace detail {
const std::string& cuda_host_header_source();  // generated from kernels/prelude/kumo_cuda_host.h
}  // namespace detail

namespace kernels {

const std::string& cuda_host_header_source() { return detail::cuda_host_header_source(); }

// ============================================================================================
// Translation
// ============================================================================================
namespace {

bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The source with comments, string and character literals blanked out (newlines kept), so
// that scans see code only and offsets map 1:1 onto the original text.
std::string code_mask(const std::string& s) {
  std::string m = s;
  size_t i = 0, n = s.size();
  while (i < n) {
    char c = s[i];
    if (c == '/' && i + 1 < n && s[i + 1] == '/') {
      while (i < n && s[i] != '\n') m[i++] = ' ';
    } else if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      m[i] = m[i + 1] = ' ';
      i += 2;
      while (i < n && !(s[i] == '*' && i + 1 < n && s[i + 1] == '/')) {
        if (s[i] != '\n') m[i] = ' ';
        ++i;
      }
      if (i < n) m[i] = m[i + 1] = ' ', i += 2;
    } else if (c == '"' || c == '\'') {
      // Keep the quotes, blank the contents.
      ++i;
      while (i < n && s[i] != c && s[i] != '\n') {
        if (s[i] == '\\' && i + 1 < n) m[i++] = ' ';
        m[i++] = ' ';
      }
      ++i;
    } else {
      ++i;
    }
  }
  return m;
}

int line_of(const std::string& s, size_t pos) {
  int line = 1;
  for (size_t i = 0; i < pos && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

std::string line_text(const std::string& s, int line) {
  std::istringstream in(s);
  std::string l;
  for (int i = 0; i < line && std::getline(in, l); ++i) {
  }
  size_t a = l.find_first_not_of(" \t");
  return a == std::string::npos ? std::string() : l.substr(a);
}

// Positions of identifier `word` as a whole token in the masked code.
std::vector<size_t> find_word(const std::string& m, const std::string& word) {
  std::vector<size_t> out;
  for (size_t p = m.find(word); p != std::string::npos; p = m.find(word, p + 1)) {
    if (p > 0 && is_ident_char(m[p - 1])) continue;
    if (p + word.size() < m.size() && is_ident_char(m[p + word.size()])) continue;
    out.push_back(p);
  }
  return out;
}

size_t skip_ws(const std::string& m, size_t p) {
  while (p < m.size() && std::isspace(static_cast<unsigned char>(m[p]))) ++p;
  return p;
}

// Throws for the earliest unsupported construct in the source.
void reject_unsupported(const std::string& src, const std::string& m) {
  size_t first = std::string::npos;
  std::string what;
  auto hit = [&](size_t pos, const std::string& w) {
    if (pos < first) first = pos, what = w;
  };
  for (const char* w : {"asm", "__asm__", "__asm"}) {
    for (size_t p : find_word(m, w)) {
      size_t q = skip_ws(m, p + std::strlen(w));
      for (const char* qual : {"volatile", "__volatile__", "goto", "inline"}) {
        if (m.compare(q, std::strlen(qual), qual) == 0) q = skip_ws(m, q + std::strlen(qual));
      }
      if (q < m.size() && m[q] == '(') hit(p, "inline PTX assembly (asm)");
    }
  }
  for (const char* w : {"tex1Dfetch", "tex1D", "tex2D", "tex3D", "tex1DLayered", "tex2DLayered", "texCubemap",
                        "tex2Dgather", "tex1DLod", "tex2DLod", "tex3DLod", "cudaTextureObject_t", "texture"}) {
    for (size_t p : find_word(m, w)) {
      // `texture` alone is a legal identifier; the texture reference template is `texture<`.
      if (std::strcmp(w, "texture") == 0 && m[skip_ws(m, p + 7)] != '<') continue;
      hit(p, std::string("texture objects and fetches (") + w + ")");
    }
  }
  for (const char* w : {"surf1Dread", "surf1Dwrite", "surf2Dread", "surf2Dwrite", "surf3Dread", "surf3Dwrite",
                        "surf2DLayeredread", "surf2DLayeredwrite", "cudaSurfaceObject_t", "surface"}) {
    for (size_t p : find_word(m, w)) {
      if (std::strcmp(w, "surface") == 0 && m[skip_ws(m, p + 7)] != '<') continue;
      hit(p, std::string("surface objects (") + w + ")");
    }
  }
  hit(m.find("<<<"), "dynamic parallelism (a kernel launch <<<...>>> in device code)");
  for (const char* w : {"this_grid", "this_multi_grid", "grid_group"}) {
    for (size_t q : find_word(m, w)) hit(q, std::string("grid-wide cooperative groups (") + w + ")");
  }
  if (first == std::string::npos) return;
  const int line = line_of(src, first);
  throw CompileError("CUDA host emulation does not support " + what + " (line " + std::to_string(line) + ": " +
                     line_text(src, line) + ")");
}

// Whether a kernel needs fibers: any barrier, warp operation or cooperative group.
bool needs_fibers(const std::string& m) {
  static const char* words[] = {"__syncthreads",     "__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
                                "__syncwarp",        "__shfl_sync",         "__shfl_up_sync",    "__shfl_down_sync",
                                "__shfl_xor_sync",   "__ballot_sync",       "__any_sync",        "__all_sync",
                                "__uni_sync",        "__match_any_sync",    "__match_all_sync",  "__reduce_add_sync",
                                "__reduce_min_sync", "__reduce_max_sync",   "__reduce_and_sync", "__reduce_or_sync",
                                "__reduce_xor_sync", "cooperative_groups",  "this_thread_block", "tiled_partition",
                                "thread_block",      "thread_block_tile"};
  for (const char* w : words)
    if (!find_word(m, w).empty()) return true;
  return false;
}

bool is_cuda_header(const std::string& name) {
  static const char* prefixes[] = {"cuda",
                                   "cooperative_groups",
                                   "cuComplex",
                                   "thrust/",
                                   "math_constants",
                                   "device_functions",
                                   "device_launch_parameters",
                                   "vector_types",
                                   "vector_functions",
                                   "sm_",
                                   "crt/",
                                   "builtin_types",
                                   "host_defines",
                                   "driver_types",
                                   "cuda_fp16",
                                   "cuda_runtime"};
  for (const char* p : prefixes)
    if (name.compare(0, std::strlen(p), p) == 0) return true;
  return false;
}

// Drops #include lines of CUDA's own headers (the emulation header stands for them).
void drop_cuda_includes(std::string& src, const std::string& m) {
  size_t start = 0;
  while (start < src.size()) {
    size_t end = src.find('\n', start);
    if (end == std::string::npos) end = src.size();
    size_t p = skip_ws(m, start);
    if (p < end && m[p] == '#') {
      size_t q = skip_ws(m, p + 1);
      if (m.compare(q, 7, "include") == 0) {
        size_t a = src.find_first_of("<\"", q + 7);
        if (a != std::string::npos && a < end) {
          size_t b = src.find_first_of(">\"", a + 1);
          const std::string name = b != std::string::npos && b < end ? src.substr(a + 1, b - a - 1) : "";
          if (name == "cupy/complex.cuh") {
            // CuPy's complex<T> (a thrust-style class); the using-declaration is shorter than
            // the #include line, so offsets into the mask stay valid.
            const std::string alias = "using thrust::complex;";
            for (size_t i = start; i < end; ++i) src[i] = i - start < alias.size() ? alias[i - start] : ' ';
          } else if (!name.empty() && is_cuda_header(name)) {
            for (size_t i = start; i < end; ++i) src[i] = ' ';
          }
        }
      }
    }
    start = end + 1;
  }
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return std::string();
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

// Removes __align__(...) / alignas(...) from a type.
std::string strip_align(std::string t) {
  for (const char* w : {"__align__", "alignas"}) {
    for (size_t p = t.find(w); p != std::string::npos; p = t.find(w)) {
      size_t q = t.find('(', p);
      int depth = 0;
      size_t e = q;
      for (; e < t.size(); ++e) {
        if (t[e] == '(') ++depth;
        if (t[e] == ')' && --depth == 0) break;
      }
      t.erase(p, e + 1 - p);
    }
  }
  return trim(t);
}

// `extern __shared__ T name[];` -> a pointer into the block's dynamic shared buffer.
std::string rewrite_dynamic_shared(const std::string& src, const std::string& m, const std::string& file) {
  std::string out;
  size_t last = 0;
  for (size_t p : find_word(m, "extern")) {
    size_t q = skip_ws(m, p + 6);
    if (m.compare(q, 10, "__shared__") != 0) continue;
    size_t semi = m.find(';', q);
    if (semi == std::string::npos) continue;
    std::string decl = m.substr(q + 10, semi - q - 10);
    size_t lb = decl.rfind('[');
    if (lb == std::string::npos) continue;
    size_t ne = decl.find_last_not_of(" \t\n", lb - 1);
    size_t nb = ne;
    while (nb > 0 && is_ident_char(decl[nb - 1])) --nb;
    std::string name = decl.substr(nb, ne + 1 - nb);
    std::string type = strip_align(decl.substr(0, nb));
    // Brace depth decides between a local declaration and a file-scope macro.
    int depth = 0;
    for (size_t i = 0; i < p; ++i) depth += m[i] == '{' ? 1 : m[i] == '}' ? -1 : 0;
    out.append(src, last, p - last);
    const std::string ptr = "reinterpret_cast<" + type + "*>(__kumo_dyn_smem())";
    const int newlines = static_cast<int>(std::count(src.begin() + p, src.begin() + semi, '\n'));
    if (depth > 0) {
      out += type + "* " + name + " = " + ptr + ";";
      out.append(static_cast<size_t>(newlines), '\n');
    } else {
      const int line = line_of(src, semi);
      out += "\n#define " + name + " (" + ptr + ")\n#line " + std::to_string(line) + " \"" + file + "\"\n";
    }
    last = semi + 1;
  }
  out.append(src, last, std::string::npos);
  return out;
}

// `__device__` functions become hidden (so that the compiler may inline them: an
// exported function of a shared object could be interposed), `__device__`
// variables stay exported for dlsym: their qualifier is rewritten to __kumo_var__
// (same length, so offsets stay valid). A `__device__` after a lambda's `]` is dropped.
void rewrite_device_variables(std::string& src, const std::string& m) {
  for (size_t p : find_word(m, "__device__")) {
    size_t b = p;
    while (b > 0 && std::isspace(static_cast<unsigned char>(m[b - 1]))) --b;
    if (b > 0 && m[b - 1] == ']') {
      src.replace(p, 10, 10, ' ');
      continue;
    }
    size_t q = p + 10;
    bool is_variable = false;
    while (q < m.size()) {
      char c = m[q];
      if (c == '(') {
        // Attribute-like groups are skipped; any other parenthesis starts a parameter list.
        size_t e = q;
        while (e > p && std::isspace(static_cast<unsigned char>(m[e - 1]))) --e;
        size_t s = e;
        while (s > p && is_ident_char(m[s - 1])) --s;
        const std::string word = m.substr(s, e - s);
        if (word != "__align__" && word != "alignas" && word != "__attribute__" && word != "__launch_bounds__" &&
            word != "decltype")
          break;
        int depth = 0;
        for (; q < m.size(); ++q) {
          if (m[q] == '(') ++depth;
          if (m[q] == ')' && --depth == 0) break;
        }
        ++q;
        continue;
      }
      if (c == ';' || c == '=' || c == '[' || c == '{' || c == ',') {
        is_variable = true;  // `{` before any `(` is a brace initialiser
        break;
      }
      ++q;
    }
    if (is_variable) src.replace(p, 10, "__kumo_var");
  }
}

// Names of non-template __global__ functions, in source order.
std::vector<std::string> find_kernels(const std::string& m) {
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (size_t p : find_word(m, "__global__")) {
    // Template kernels need explicit expressions: look back to the previous declaration boundary.
    size_t b = p;
    while (b > 0 && m[b - 1] != ';' && m[b - 1] != '}' && m[b - 1] != '{') --b;
    std::string head = m.substr(b, p - b);
    bool is_template = false;
    for (size_t t = head.find("template"); t != std::string::npos; t = head.find("template", t + 1)) {
      if ((t == 0 || !is_ident_char(head[t - 1])) && (t + 8 >= head.size() || !is_ident_char(head[t + 8])))
        is_template = true;
    }
    if (is_template) continue;
    size_t paren = m.find('(', p);
    // Skip __launch_bounds__(...) and similar attribute-like macros.
    while (paren != std::string::npos) {
      size_t e = paren;
      while (e > p && std::isspace(static_cast<unsigned char>(m[e - 1]))) --e;
      size_t s = e;
      while (s > p && is_ident_char(m[s - 1])) --s;
      std::string word = m.substr(s, e - s);
      if (word == "__launch_bounds__" || word == "__attribute__" || word == "__align__" || word == "alignas") {
        int depth = 0;
        size_t q = paren;
        for (; q < m.size(); ++q) {
          if (m[q] == '(') ++depth;
          if (m[q] == ')' && --depth == 0) break;
        }
        paren = m.find('(', q);
        continue;
      }
      if (!word.empty() && seen.insert(word).second) names.push_back(word);
      break;
    }
  }
  return names;
}

// Offset of the bracket matching the opening one at `open` in the masked code, or npos.
size_t matching(const std::string& m, size_t open) {
  const char o = m[open], c = o == '(' ? ')' : o == '{' ? '}' : ']';
  int depth = 0;
  for (size_t q = open; q < m.size(); ++q) {
    if (m[q] == o) ++depth;
    if (m[q] == c && --depth == 0) return q;
  }
  return std::string::npos;
}

// Whether a kernel body holds code that cannot see the enclosing function's
// locals: a lambda (`]` followed by its parameters or body, or `[]<` for a
// template lambda; `a[i](...)` and `int a[2]{...}` are caught too, harmlessly)
// or a local class.
bool has_nested_scope(const std::string& body) {
  for (size_t p = body.find(']'); p != std::string::npos; p = body.find(']', p + 1)) {
    const size_t q = skip_ws(body, p + 1);
    if (q >= body.size()) break;
    if (body[q] == '(' || body[q] == '{') return true;
    size_t b = p;
    while (b > 0 && std::isspace(static_cast<unsigned char>(body[b - 1]))) --b;
    if (body[q] == '<' && b > 0 && body[b - 1] == '[') return true;
  }
  for (const char* w : {"struct", "class", "union"})
    if (!find_word(body, w).empty()) return true;
  return false;
}

// Loop mode (see __KumoBuiltins in kumo_cuda_host.h): every __global__ function
// gets the built-ins as a leading parameter and its body is wrapped in a scope
// that declares them as locals (a second scope, so that a kernel may still
// declare its own `blockDim`). Everything is inserted on the existing lines, so
// #line numbers stay right. Returns false, leaving `src` alone, when a __global__
// is not in a form this can rewrite (in a macro, followed by something other than
// a body or `;`, or whose body holds a lambda or a local class that could not
// read the locals): the module then runs every kernel the old way, reading
// threadIdx from the thread-local. `tid_outside` becomes whether threadIdx (or
// __activemask, which reads it) is used outside the rewritten kernel bodies, by
// device functions or macros, which then need the thread-local stored per thread.
bool pass_builtins_as_parameters(std::string& src, bool& tid_outside) {
  const std::string m = code_mask(src);
  struct Edit {
    size_t pos;
    std::string text;
  };
  std::vector<Edit> edits;
  std::vector<std::pair<size_t, size_t>> bodies, blanks;
  for (size_t p : find_word(m, "__global__")) {
    // Not inside a preprocessor directive (a line starting with '#', or continued from one).
    size_t ls = p;
    for (;;) {
      while (ls > 0 && m[ls - 1] != '\n') --ls;
      size_t e = ls;  // end of the previous line, before its newline
      if (e < 2) break;
      size_t back = e - 1;
      while (back > 0 && (m[back - 1] == ' ' || m[back - 1] == '\t' || m[back - 1] == '\r')) --back;
      if (back == 0 || m[back - 1] != '\\') break;
      ls = back - 1;
    }
    if (m[skip_ws(m, ls)] == '#') return false;
    // The parameter list: the first parenthesis not of an attribute-like macro.
    size_t paren = m.find('(', p);
    for (;;) {
      if (paren == std::string::npos) return false;
      size_t e = paren;
      while (e > p && std::isspace(static_cast<unsigned char>(m[e - 1]))) --e;
      size_t s = e;
      while (s > p && is_ident_char(m[s - 1])) --s;
      const std::string word = m.substr(s, e - s);
      if (word == "__launch_bounds__" || word == "__attribute__" || word == "__align__" || word == "alignas") {
        const size_t close = matching(m, paren);
        if (close == std::string::npos) return false;
        paren = m.find('(', close);
        continue;
      }
      if (word.empty()) return false;
      break;
    }
    // Nothing but the declaration's own tokens between __global__ and the name.
    for (size_t q = p; q < paren; ++q)
      if (m[q] == ';' || m[q] == '{' || m[q] == '}') return false;
    const size_t close = matching(m, paren);
    if (close == std::string::npos) return false;
    const std::string params = trim(m.substr(paren + 1, close - paren - 1));
    if (params.empty() || params == "void") {
      // `(void)` or `()`: blanked (comments too, newlines kept) and replaced by the one parameter.
      blanks.emplace_back(paren + 1, close);
      edits.push_back({paren + 1, "__KumoBuiltins __kumo_bi"});
    } else {
      edits.push_back({paren + 1, "__KumoBuiltins __kumo_bi, "});
    }
    const size_t after = skip_ws(m, close + 1);
    if (after >= m.size()) return false;
    if (m[after] == ';') continue;
    if (m[after] != '{') return false;
    const size_t end = matching(m, after);
    if (end == std::string::npos) return false;
    if (has_nested_scope(m.substr(after + 1, end - after - 1))) return false;
    edits.push_back({after + 1, " __KUMO_LOOP_BUILTINS {"});
    edits.push_back({end, "} "});
    bodies.emplace_back(after, end);
  }
  tid_outside = !find_word(m, "__activemask").empty();
  for (size_t p : find_word(m, "threadIdx")) {
    bool inside = false;
    for (const auto& b : bodies) inside = inside || (p > b.first && p < b.second);
    tid_outside = tid_outside || !inside;
  }
  for (const auto& b : blanks)
    for (size_t i = b.first; i < b.second; ++i)
      if (src[i] != '\n') src[i] = ' ';
  // Applied from the back so that earlier offsets stay valid; of two insertions at one
  // offset (the braces of an empty body) the later one goes in first, to end up after.
  std::stable_sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.pos < b.pos; });
  for (auto e = edits.rbegin(); e != edits.rend(); ++e) src.insert(e->pos, e->text);
  return true;
}

std::string symbol_for(size_t i, const std::string& expr) {
  std::string s = "kumo_emu_entry_" + std::to_string(i) + "_";
  for (char c : expr) {
    if (is_ident_char(c)) s += c;
    if (s.size() > 80) break;
  }
  return s;
}

}  // namespace

EmulatedModuleSource translate_cuda_for_host(const std::string& cuda_source,
                                             const std::vector<std::string>& kernel_expressions,
                                             const std::vector<std::string>& options) {
  static const std::string kFile = "kernel.cu";
  std::string src = cuda_source;
  std::string m = code_mask(src);
  reject_unsupported(src, m);
  // Conservative: macros from the options and headers we cannot see (a quoted
  // #include) may hide a barrier, and a barrier in a loop-mode kernel has no runtime.
  std::string joined_options;
  for (const std::string& o : options) joined_options += o + " ";
  const bool fibers =
      needs_fibers(m) || needs_fibers(joined_options) || std::regex_search(m, std::regex("#\\s*include\\s*\""));
  drop_cuda_includes(src, m);
  m = code_mask(src);
  rewrite_device_variables(src, m);
  src = rewrite_dynamic_shared(src, m, kFile);

  std::vector<std::string> exprs = kernel_expressions;
  if (exprs.empty()) exprs = find_kernels(code_mask(src));
  // Loop mode: the built-ins as values where the kernels allow it (so that the thread
  // loop vectorises), threadIdx in the thread-local where anything else may read it.
  bool tid_tls = true;
  if (!fibers && pass_builtins_as_parameters(src, tid_tls)) {
    for (const char* w : {"threadIdx", "__activemask"})
      if (!find_word(joined_options, w).empty()) tid_tls = true;
  }

  EmulatedModuleSource out;
  std::string defines;
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    std::string def;
    if (o.rfind("-D", 0) == 0 && o.size() > 2) {
      def = o.substr(2);
    } else if ((o == "-D" || o == "--define-macro") && i + 1 < options.size()) {
      def = options[++i];
    } else if (o.rfind("--define-macro=", 0) == 0) {
      def = o.substr(15);
    } else {
      continue;  // -arch, --std, -use_fast_math, ...: nothing to do on the host
    }
    size_t eq = def.find('=');
    if (eq == std::string::npos)
      defines += "#define " + def + " 1\n";
    else
      defines += "#define " + def.substr(0, eq) + " " + def.substr(eq + 1) + "\n";
  }
  std::string entries = "\n#line 1 \"<kumo emulation entries>\"\n";
  for (size_t i = 0; i < exprs.size(); ++i) {
    const std::string sym = symbol_for(i, exprs[i]);
    entries += "extern \"C\" __attribute__((visibility(\"default\"))) void " + sym +
               "(const void* l, int64_t b0, int64_t b1) { " + (fibers ? "__kumo_run_fibers<&" + exprs[i] + " >"
                       : "__kumo_run_loop<&" + exprs[i] + ", " + (tid_tls ? "true" : "false") + ">") +
               "(l, b0, b1); }\n";
    out.entries.emplace_back(exprs[i], sym);
  }
  // The emulation header precompiled (kernels/host/host_compiler.h): it
  // halves a small kernel's compile time.
  const std::string pch = precompiled_header("kumo_cuda_host.h", cuda_host_header_source());
  out.source = (pch.empty() ? cuda_host_header_source() : "#include \"" + pch + "\"") + "\n" + defines + "#line 1 \"" +
               kFile + "\"\n" + src + "\n" + entries;
  return out;
}

// ============================================================================================
// Fiber runtime
// ============================================================================================
namespace {

namespace bctx = boost::context::detail;

// Layout shared with kumo_cuda_host.h.
struct KumoEmuBlockJob {
  uint32_t nthreads;
  uint32_t block_dim[3];
  void (*thread_main)(void* closure, uint32_t tid, void* blk);
  void* closure;
};
struct KumoEmuRuntime {
  uint32_t version;
  void (*run_block)(const KumoEmuBlockJob* job);
  void (*sync_block)(void* blk);
  int (*sync_block_count)(void* blk, int pred, int* participants);
  const uint64_t* (*warp_exchange)(void* blk, uint64_t value, uint32_t mask);
};
struct KumoEmuLaunch {
  EmulatedLaunch launch;
  const KumoEmuRuntime* runtime;
};
static_assert(offsetof(KumoEmuLaunch, runtime) == 40, "layout shared with kumo_cuda_host.h");

// Fiber stacks: 256 KiB of address space each (pages are committed only when touched) with
// an inaccessible guard page below, so that an overflow faults instead of corrupting a
// neighbour. Pooled per OS thread and reused by every block and launch.
constexpr size_t kStackBytes = 256 * 1024;
constexpr size_t kMaxThreads = 1024;

class StackPool {
 public:
  ~StackPool() {
    for (void* s : stacks_) munmap(s, kStackBytes + page());
  }
  // Top of stack i (stacks grow down on every platform Boost.Context supports here).
  char* top(size_t i) {
    while (stacks_.size() <= i) {
      void* p = mmap(nullptr, kStackBytes + page(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                     -1, 0);
      if (p == MAP_FAILED) throw OutOfMemoryError("CUDA host emulation: cannot map a fiber stack");
      mprotect(p, page(), PROT_NONE);
      stacks_.push_back(p);
    }
    return static_cast<char*>(stacks_[i]) + page() + kStackBytes;
  }

 private:
  static size_t page() {
    static const size_t p = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return p;
  }
  std::vector<void*> stacks_;
};

enum FiberState : uint8_t { kRunnable = 0, kBlockWait = 1, kWarpWait = 2, kDone = 3 };

struct Fiber {
  bctx::fcontext_t ctx = nullptr;
  uint8_t state = kDone;
  bool parked = false;  // finished a thread and waits at the top of fiber_main's loop
};

// The state of the block an OS thread is running. One per OS thread, reused.
struct BlockRun {
  const KumoEmuBlockJob* job = nullptr;
  uint32_t n = 0, cur = 0, alive = 0;
  bool deadlock = false;
  bctx::fcontext_t main = nullptr;
  // Block barrier: arrivals and __syncthreads_count's sum, double-buffered so that a
  // thread released from barrier k can read k's result while others reach k+1.
  uint32_t block_arrived = 0;
  uint32_t count_parity = 0;
  int count_acc[2] = {0, 0};
  int count_result[2] = {0, 0};
  int count_participants[2] = {0, 0};
  // Warp barriers: per warp, the lanes alive, arrived, and the mask of the pending operation.
  uint32_t warp_alive[kMaxThreads / 32];
  uint32_t warp_arrived[kMaxThreads / 32];
  uint32_t warp_req[kMaxThreads / 32];
  uint8_t warp_parity[kMaxThreads / 32];
  Fiber fibers[kMaxThreads];
  uint64_t xchg[2][kMaxThreads];
  StackPool stacks;
};

thread_local std::unique_ptr<BlockRun> tl_run;

void save_from(bctx::transfer_t t) { *static_cast<bctx::fcontext_t*>(t.data) = t.fctx; }

// Next runnable fiber after `me` (circularly, `me` itself last), or n if none.
uint32_t next_runnable(const BlockRun* b, uint32_t me) {
  const uint32_t n = b->n;
  for (uint32_t k = 1; k <= n; ++k) {
    uint32_t j = me + k;
    if (j >= n) j -= n;
    if (b->fibers[j].state == kRunnable) return j;
  }
  return n;
}

// Suspends fiber `me` (already marked as waiting or done) and runs the next runnable one.
void switch_away(BlockRun* b, uint32_t me) {
  uint32_t j = next_runnable(b, me);
  if (j == b->n) {
    // Nobody can run: all done, or the waiters wait for each other.
    b->deadlock = b->alive > 0;
    save_from(bctx::jump_fcontext(b->main, &b->fibers[me].ctx));
    return;  // resumed only when parked, for the next block
  }
  if (j == me) return;
  b->cur = j;
  save_from(bctx::jump_fcontext(b->fibers[j].ctx, &b->fibers[me].ctx));
}

void release_block(BlockRun* b) {
  const uint32_t par = b->count_parity;
  b->count_result[par] = b->count_acc[par];
  b->count_participants[par] = static_cast<int>(b->block_arrived);
  b->count_parity = par ^ 1u;
  b->count_acc[par ^ 1u] = 0;
  b->block_arrived = 0;
  for (uint32_t i = 0; i < b->n; ++i)
    if (b->fibers[i].state == kBlockWait) b->fibers[i].state = kRunnable;
}

void check_warp(BlockRun* b, uint32_t w) {
  const uint32_t arrived = b->warp_arrived[w];
  if (arrived == 0) return;
  const uint32_t need = b->warp_req[w] & b->warp_alive[w];
  if (need & ~arrived) return;
  for (uint32_t lane = 0; lane < 32; ++lane) {
    if ((arrived >> lane) & 1u) b->fibers[w * 32 + lane].state = kRunnable;
  }
  b->warp_arrived[w] = 0;
  b->warp_parity[w] ^= 1u;
}

// A fiber runs one thread of a block, parks when it returns, and is resumed to run
// a thread of the next block: contexts are made once per OS thread, not per block.
void fiber_main(bctx::transfer_t t) {
  save_from(t);
  BlockRun* b = tl_run.get();
  for (;;) {
    const uint32_t me = b->cur;
    b->fibers[me].parked = false;
    b->job->thread_main(b->job->closure, me, b);
    // Exited threads count as arrived at every barrier (what GPUs effectively do).
    b->fibers[me].state = kDone;
    b->fibers[me].parked = true;
    --b->alive;
    const uint32_t w = me >> 5;
    b->warp_alive[w] &= ~(1u << (me & 31u));
    if (b->block_arrived > 0 && b->block_arrived == b->alive) release_block(b);
    check_warp(b, w);
    switch_away(b, me);
  }
}

void rt_run_block(const KumoEmuBlockJob* job) {
  if (!tl_run) tl_run = std::make_unique<BlockRun>();
  BlockRun* b = tl_run.get();
  const uint32_t n = job->nthreads;
  b->job = job;
  b->n = n;
  b->alive = n;
  b->deadlock = false;
  b->block_arrived = 0;
  b->count_parity = 0;
  b->count_acc[0] = b->count_acc[1] = 0;
  const uint32_t nwarps = (n + 31) / 32;
  for (uint32_t w = 0; w < nwarps; ++w) {
    const uint32_t lanes = n - w * 32 >= 32 ? 32 : n - w * 32;
    b->warp_alive[w] = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1u);
    b->warp_arrived[w] = 0;
    b->warp_req[w] = 0;
    b->warp_parity[w] = 0;
  }
  for (uint32_t i = 0; i < n; ++i) {
    b->fibers[i].state = kRunnable;
    // New fibers, and fibers abandoned at a deadlock, start afresh.
    if (!b->fibers[i].parked) b->fibers[i].ctx = bctx::make_fcontext(b->stacks.top(i), kStackBytes, fiber_main);
  }
  b->cur = 0;
  save_from(bctx::jump_fcontext(b->fibers[0].ctx, &b->main));
  if (b->deadlock) {
    // The waiting fibers are abandoned (their stacks are reused by the next block).
    uint32_t at_block = 0, at_warp = 0;
    for (uint32_t i = 0; i < n; ++i) {
      at_block += b->fibers[i].state == kBlockWait;
      at_warp += b->fibers[i].state == kWarpWait;
    }
    throw RuntimeError("CUDA host emulation: deadlock in a block of " + std::to_string(n) + " threads: " +
                       std::to_string(at_block) + " wait at __syncthreads while " + std::to_string(at_warp) +
                       " wait at a warp operation whose other lanes never reach it (divergent barrier)");
  }
}

// A barrier reached by a kernel that the translator ran as a plain loop (blk is null there).
void no_fibers() {
  throw RuntimeError(
      "CUDA host emulation: a barrier or warp operation was reached by a kernel whose module was translated "
      "without one (it came from a macro or header the translator could not see); the result is undefined");
}

void rt_sync_block(void* blk) {
  if (!blk) no_fibers();
  BlockRun* b = static_cast<BlockRun*>(blk);
  const uint32_t me = b->cur;
  b->fibers[me].state = kBlockWait;
  if (++b->block_arrived == b->alive) release_block(b);
  switch_away(b, me);
}

int rt_sync_block_count(void* blk, int pred, int* participants) {
  if (!blk) no_fibers();
  BlockRun* b = static_cast<BlockRun*>(blk);
  const uint32_t me = b->cur;
  const uint32_t par = b->count_parity;
  b->count_acc[par] += pred != 0;
  b->fibers[me].state = kBlockWait;
  if (++b->block_arrived == b->alive) release_block(b);
  switch_away(b, me);
  *participants = b->count_participants[par];
  return b->count_result[par];
}

const uint64_t* rt_warp_exchange(void* blk, uint64_t value, uint32_t mask) {
  if (!blk) no_fibers();
  BlockRun* b = static_cast<BlockRun*>(blk);
  const uint32_t me = b->cur, w = me >> 5;
  const uint32_t par = b->warp_parity[w];
  b->xchg[par][me] = value;
  b->fibers[me].state = kWarpWait;
  if (b->warp_arrived[w] == 0) b->warp_req[w] = 0;
  b->warp_req[w] |= mask;
  b->warp_arrived[w] |= 1u << (me & 31u);
  check_warp(b, w);
  switch_away(b, me);
  return &b->xchg[par][w * 32];
}

const KumoEmuRuntime kRuntime = {1, rt_run_block, rt_sync_block, rt_sync_block_count, rt_warp_exchange};

}  // namespace

void launch_emulated(HostRangeFn entry, const EmulatedLaunch& launch) { launch_emulated(entry, launch, 48u * 1024u); }

void launch_emulated(HostRangeFn entry, const EmulatedLaunch& launch, uint64_t max_dynamic_shared_bytes) {
  if (!entry) throw ValueError("launch_emulated: no kernel entry");
  const uint32_t* g = launch.grid;
  const uint32_t* k = launch.block;
  auto dims = [](const uint32_t* d) {
    return "(" + std::to_string(d[0]) + ", " + std::to_string(d[1]) + ", " + std::to_string(d[2]) + ")";
  };
  if (g[0] == 0 || g[1] == 0 || g[2] == 0)
    throw ValueError("invalid grid " + dims(g) + ": every grid dimension must be at least 1");
  if (k[0] == 0 || k[1] == 0 || k[2] == 0)
    throw ValueError("invalid block " + dims(k) + ": every block dimension must be at least 1");
  if (g[0] > 2147483647u || g[1] > 65535u || g[2] > 65535u)
    throw ValueError("invalid grid " + dims(g) + ": CUDA allows at most (2147483647, 65535, 65535)");
  if (k[0] > 1024u || k[1] > 1024u || k[2] > 64u)
    throw ValueError("invalid block " + dims(k) + ": CUDA allows at most (1024, 1024, 64)");
  const uint64_t threads = uint64_t(k[0]) * k[1] * k[2];
  if (threads > kMaxThreads)
    throw ValueError("invalid block " + dims(k) + ": " + std::to_string(threads) +
                     " threads per block, CUDA allows at most 1024");
  if (launch.dynamic_shared_bytes > max_dynamic_shared_bytes)
    throw ValueError("too much dynamic shared memory: " + std::to_string(launch.dynamic_shared_bytes) +
                     " bytes requested, the limit is " + std::to_string(max_dynamic_shared_bytes) +
                     " bytes (raise it with the kernel's max_dynamic_shared_size_bytes attribute)");
  KumoEmuLaunch ext;
  ext.launch = launch;
  ext.runtime = &kRuntime;
  const int64_t nblocks = int64_t(g[0]) * g[1] * g[2];
  run_host_range(entry, &ext, nblocks, 1);
}

}  // namespace kernels
}  // namespace kumo
