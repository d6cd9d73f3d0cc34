#include "completion/completion.h"

#include "completion/value_kind.h"
#include "util/markup_escape.h"

#include <algorithm>
#include <cctype>
#include <cstring>

namespace bb {

namespace {

// bash's "--db" "=" "x" back into "--db=x"; a trailing "=" leaves "--db=" being completed.
std::vector<std::string> join_equals(const std::vector<std::string>& words) {
    std::vector<std::string> joined;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const bool splits_an_option = words[i] == "=" && !joined.empty() &&
                                      joined.back().starts_with("-") &&
                                      joined.back().find('=') == std::string::npos;
        if (!splits_an_option) {
            joined.push_back(words[i]);
            continue;
        }
        joined.back() += "=";
        if (i + 1 < words.size()) {
            joined.back() += words[++i];
        }
    }
    if (joined.empty()) {
        joined.emplace_back();
    }
    return joined;
}

bool named(const OptionOutline& option, const std::string& name) {
    return std::find(option.names.begin(), option.names.end(), name) != option.names.end();
}

// The command's own option of that name, else the program's (global options may follow the
// command).
const OptionOutline* find_option(const CommandOutline* command, const CommandOutline& program,
                                 const std::string& name) {
    for (const CommandOutline* owner : {command, &program}) {
        if (owner == nullptr) {
            continue; // no command named yet
        }
        for (const auto& option : owner->options) {
            if (named(option, name)) {
                return &option;
            }
        }
    }
    return nullptr;
}

const CommandOutline* find_command(const std::vector<CommandOutline>& commands,
                                   const std::string& name) {
    const auto found = std::find_if(commands.begin(), commands.end(),
                                    [&](const CommandOutline& c) { return c.name == name; });
    return found == commands.end() ? nullptr : &*found;
}

// Where the words before the cursor leave the command line.
struct Position {
    const CommandOutline* command = nullptr;       // none named yet
    const OptionOutline* awaiting_value = nullptr; // the last word was an option taking one
    std::size_t positionals = 0;                   // the command's positional words so far
    bool after_dashes = false;                     // "--": every later word is positional
    bool unknown_command = false;
    std::optional<std::string> db; // --db's value, for the stored values
};

void read_option_word(Position& at, const CommandOutline& program, const std::string& word) {
    const auto equals = word.find('=');
    const std::string name = word.substr(0, equals);
    const OptionOutline* option = find_option(at.command, program, name);
    if (option == nullptr || option->value.empty()) {
        return; // a flag, or an option completion knows nothing of
    }
    if (equals == std::string::npos) {
        at.awaiting_value = option;
    } else if (name == "--db") {
        at.db = word.substr(equals + 1);
    }
}

Position read_position(const CommandOutline& program, const std::vector<CommandOutline>& commands,
                       const std::vector<std::string>& before) {
    Position at;
    for (const auto& word : before) {
        if (at.awaiting_value != nullptr) {
            if (named(*at.awaiting_value, "--db")) {
                at.db = word;
            }
            at.awaiting_value = nullptr;
        } else if (!at.after_dashes && word == "--") {
            at.after_dashes = true;
        } else if (!at.after_dashes && word.size() > 1 && word.front() == '-') {
            read_option_word(at, program, word);
        } else if (at.command == nullptr) {
            at.command = find_command(commands, word);
            at.unknown_command = at.command == nullptr;
            if (at.unknown_command) {
                return at;
            }
        } else {
            ++at.positionals;
        }
    }
    return at;
}

std::string first_line(const std::string& text) {
    return text.substr(0, text.find('\n'));
}

void offer(Completion& completion, const std::string& typed, const std::string& prefix,
           const Candidate& candidate) {
    if (plain_word(candidate.word) && candidate.word.starts_with(typed)) {
        completion.candidates.push_back({prefix + candidate.word, candidate.description});
    }
}

// The values `option` takes, those starting with `typed`, each written after `prefix`
// ("--format=" when the value is part of the option's word).
Completion values_of(const OptionOutline& option, const std::string& typed,
                     const std::string& prefix, const Position& at, const StoredValues& stored) {
    const std::string kind = option.value.substr(0, option.value.find(':'));
    Completion completion;
    if (lists_values(kind)) {
        for (std::size_t start = 0; start <= kind.size();) {
            const auto end = std::min(kind.find('|', start), kind.size());
            offer(completion, typed, prefix, {kind.substr(start, end - start), ""});
            start = end + 1;
        }
    } else if (kind == k_run_value || kind == k_experiment_value || kind == k_build_value) {
        for (const auto& candidate : stored(kind, at.db)) {
            offer(completion, typed, prefix, candidate);
        }
    } else {
        completion.files = true; // a file, a number, free text: the shell's own completion
    }
    return completion;
}

Completion options_of(const CommandOutline* command, const CommandOutline& program,
                      const std::string& typed) {
    Completion completion;
    std::vector<std::string> seen;
    for (const CommandOutline* owner : {command, &program}) {
        if (owner == nullptr) {
            continue;
        }
        for (const auto& option : owner->options) {
            for (const auto& name : option.names) {
                if (std::find(seen.begin(), seen.end(), name) == seen.end()) {
                    seen.push_back(name);
                    offer(completion, typed, "", {name, first_line(option.description)});
                }
            }
        }
    }
    return completion;
}

// The command's positional at `index` (its first, second …); nullptr past the last.
const OptionOutline* positional_at(const CommandOutline& command, std::size_t index) {
    for (const auto& option : command.options) {
        if (option.names.empty() && index-- == 0) {
            return &option;
        }
    }
    return nullptr;
}

Completion option_word(const Position& at, const CommandOutline& program,
                       const std::string& current, const StoredValues& stored) {
    const auto equals = current.find('=');
    if (equals == std::string::npos) {
        return options_of(at.command, program, current);
    }
    const OptionOutline* option = find_option(at.command, program, current.substr(0, equals));
    if (option == nullptr || option->value.empty()) {
        return {};
    }
    return values_of(*option, current.substr(equals + 1), current.substr(0, equals + 1), at,
                     stored);
}

} // namespace

Completion complete_words(const CommandOutline& program,
                          const std::vector<CommandOutline>& commands,
                          const std::vector<std::string>& words, const StoredValues& stored) {
    std::vector<std::string> before = join_equals(words);
    const std::string current = before.back();
    before.pop_back();
    const Position at = read_position(program, commands, before);
    if (at.unknown_command) {
        return {};
    }
    if (at.awaiting_value != nullptr) {
        return values_of(*at.awaiting_value, current, "", at, stored);
    }
    if (!at.after_dashes && current.starts_with("-")) {
        return option_word(at, program, current, stored);
    }
    if (at.command == nullptr) {
        Completion completion;
        for (const auto& command : commands) {
            offer(completion, current, "", {command.name, first_line(command.description)});
        }
        return completion;
    }
    const OptionOutline* positional = positional_at(*at.command, at.positionals);
    return positional ? values_of(*positional, current, "", at, stored) : Completion{};
}

bool plain_word(const std::string& word) {
    return !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        // strchr finds every string's terminator: NUL is tested first.
        return (byte < 0x80 && std::isalnum(byte) != 0) ||
               (c != '\0' && std::strchr("._+,:@%/=-^~", c) != nullptr);
    });
}

std::string completion_lines(const Completion& completion) {
    std::string lines = completion.files ? ":files\n" : ":words\n";
    for (const auto& candidate : completion.candidates) {
        // terminal_text turns every control character, tab and line break included, into
        // U+FFFD: a description stays one field of one line.
        lines += candidate.word + "\t" + terminal_text(candidate.description) + "\n";
    }
    return lines;
}

} // namespace bb
