/* dcbkit completion bash|zsh: a completion script made from the command table (and dcbtop's
 * documentation, so the same script completes dcbtop), so it offers
 * what the help lists: the commands, each one's first words (calc's formulas, store's actions),
 * its options (cli_each_option), and for an option's value its choices ("text|json"), files
 * (FILE, DB, PATH, SCENARIO, *.json), folders (DIR) or nothing (a number, a duration). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "top_help.h"

#define MAX_SPELLINGS 200

enum value_kind { VALUE_NONE, VALUE_CHOICES, VALUE_FILE, VALUE_DIR, VALUE_FREE };

struct spelling {
    char flag[48];  /* "--link-speed", "-T" */
    char value[48]; /* its placeholder ("SPEED", "text|json"), "" for none */
};

struct spellings {
    struct spelling v[MAX_SPELLINGS];
    size_t n;
};

static enum value_kind kind_of(const char *value)
{
    if (!*value)
        return VALUE_NONE;
    if (!strcmp(value, "DIR"))
        return VALUE_DIR;
    if (strstr(value, "FILE") || strstr(value, ".json") || !strcmp(value, "DB") ||
        !strcmp(value, "PATH") || !strcmp(value, "SCENARIO"))
        return VALUE_FILE;
    for (const char *p = value; *p; p++)
        if (!(*p >= 'a' && *p <= 'z') && !(*p >= '0' && *p <= '9') && !strchr("|_.-", *p))
            return VALUE_FREE;
    return VALUE_CHOICES;
}

static void add(struct spellings *s, const char *flag, size_t nflag, const char *value,
                size_t nvalue)
{
    for (size_t i = 0; i < s->n; i++)
        if (strlen(s->v[i].flag) == nflag && !strncmp(s->v[i].flag, flag, nflag))
            return; /* documented twice (collect --duration) */
    if (s->n == MAX_SPELLINGS || nflag >= sizeof(s->v->flag) || nvalue >= sizeof(s->v->value))
        return;
    snprintf(s->v[s->n].flag, sizeof(s->v->flag), "%.*s", (int)nflag, flag);
    snprintf(s->v[s->n].value, sizeof(s->v->value), "%.*s", (int)nvalue, value);
    s->n++;
}

/* "-T, --format text|json", "--count N, --duration DURATION, --once", "FILE, -r FILE",
 * "--duration DURATION (--replay, --demo)": each spelling with its placeholder; a short one
 * without its own takes the next long one's ("-T" takes "text|json"). */
static void take_flags(void *arg, const char *flags)
{
    struct spellings *s = arg;
    char text[256];
    snprintf(text, sizeof(text), "%s", flags);
    char *paren = strchr(text, '(');
    if (paren)
        *paren = '\0';
    size_t first_short = s->n;
    bool pending = false; /* shorts added since the last long, waiting */
    for (char *part = text, *next; part; part = next) {
        next = strstr(part, ", ");
        if (next)
            *next = '\0', next += 2;
        part += strspn(part, " ");
        if (*part != '-')
            continue; /* an operand ("FILE") */
        size_t nflag = strcspn(part, " =");
        const char *value = part + nflag + strspn(part + nflag, " =");
        size_t nvalue = strcspn(value, " [");
        bool is_short = nflag == 2;
        if (!pending)
            first_short = s->n;
        add(s, part, nflag, value, nvalue);
        if (is_short && !nvalue) {
            pending = true;
            continue;
        }
        for (size_t i = first_short; pending && i + 1 < s->n; i++)
            if (!s->v[i].value[0])
                snprintf(s->v[i].value, sizeof(s->v->value), "%.*s", (int)nvalue, value);
        pending = false;
    }
}

static void spellings_of(const struct cli_command *cmd, struct spellings *s)
{
    s->n = 0;
    cli_each_option(cmd, take_flags, s);
}

/* help completes command names; the others their own first words */
static void print_words(FILE *fp, const struct cli_command *cmd)
{
    if (cmd->actions) {
        fputs(cmd->actions, fp);
        return;
    }
    if (strcmp(cmd->name, "help") != 0)
        return;
    for (size_t i = 0; cli_commands[i]; i++)
        fprintf(fp, "%s%s", i ? " " : "", cli_commands[i]->name);
}

static void print_choices(FILE *fp, const char *value)
{
    for (const char *p = value; *p; p++)
        fputc(*p == '|' ? ' ' : *p, fp);
}

/* ---- bash ----------------------------------------------------------------------------------- */

/* the case arms "CMD OPTION") for every option of cmd whose value is of kind k */
static bool bash_arms(FILE *fp, const struct cli_command *cmd, const struct spellings *s,
                      enum value_kind k, const char *choices_of)
{
    bool any = false;
    for (size_t i = 0; i < s->n; i++) {
        if (kind_of(s->v[i].value) != k)
            continue;
        if (choices_of && strcmp(s->v[i].value, choices_of) != 0)
            continue;
        fprintf(fp, "%s\"%s %s\"", any ? "|" : "        ", cmd->name, s->v[i].flag);
        any = true;
    }
    return any;
}

static void bash_values(FILE *fp, const struct cli_command *cmd, const struct spellings *s)
{
    for (size_t i = 0; i < s->n; i++) {
        if (kind_of(s->v[i].value) != VALUE_CHOICES)
            continue;
        bool first = true; /* one arm per distinct choice list */
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(s->v[j].value, s->v[i].value) != 0;
        if (!first)
            continue;
        bash_arms(fp, cmd, s, VALUE_CHOICES, s->v[i].value);
        fputs(") COMPREPLY=($(compgen -W \"", fp);
        print_choices(fp, s->v[i].value);
        fputs("\" -- \"$cur\")); return ;;\n", fp);
    }
    if (bash_arms(fp, cmd, s, VALUE_FILE, NULL))
        fputs(") COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", fp);
    if (bash_arms(fp, cmd, s, VALUE_DIR, NULL))
        fputs(") COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", fp);
    if (bash_arms(fp, cmd, s, VALUE_FREE, NULL))
        fputs(") COMPREPLY=(); return ;;\n", fp);
}

static void bash_lists(FILE *fp, const struct cli_command *cmd, const struct spellings *s)
{
    fprintf(fp, "        %s) opts=\"", cmd->name);
    for (size_t i = 0; i < s->n; i++)
        fprintf(fp, "%s%s", i ? " " : "", s->v[i].flag);
    fputs("\"\n            valopts=\"", fp);
    bool sp = false;
    for (size_t i = 0; i < s->n; i++)
        if (s->v[i].value[0]) {
            fprintf(fp, "%s%s", sp ? " " : "", s->v[i].flag);
            sp = true;
        }
    fputs("\"\n            words=\"", fp);
    print_words(fp, cmd);
    fputs("\" ;;\n", fp);
}

/* dcbtop has no commands: its options, their values, and files after them */
static void print_bash_dcbtop(FILE *fp)
{
    struct spellings s;
    spellings_of(&top_command, &s);
    fputs("_dcbtop() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    if [[ $cur == = || $cur == : ]]; then cur=; elif [[ $prev == = ]]; then\n"
          "        prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n"
          "    case \"dcbtop $prev\" in\n",
          fp);
    bash_values(fp, &top_command, &s);
    fputs("    esac\n"
          "    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"",
          fp);
    for (size_t i = 0; i < s.n; i++)
        fprintf(fp, "%s%s", i ? " " : "", s.v[i].flag);
    fputs("\" -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -o filenames -F _dcbtop dcbtop\n",
          fp);
}

static void print_bash(FILE *fp)
{
    struct spellings s;
    fputs("# bash completion for dcbkit, made by 'dcbkit completion bash' from its command "
          "table.\n"
          "_dcbkit() {\n"
          "    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    # --opt=VALUE and HOST:PORT: bash splits them at = and :\n"
          "    if [[ $cur == = || $cur == : ]]; then cur=; elif [[ $prev == = ]]; then\n"
          "        prev=${COMP_WORDS[COMP_CWORD-2]}; fi\n"
          "    local cmd= cmdi=0 i w\n"
          "    for ((i = 1; i < COMP_CWORD; i++)); do\n"
          "        w=${COMP_WORDS[i]}\n"
          "        case $w in\n"
          "            -T|--format) ((i++)) ;;\n"
          "            -*) ;;\n"
          "            *) cmd=$w; cmdi=$i; break ;;\n"
          "        esac\n"
          "    done\n"
          "    if [[ -z $cmd ]]; then\n"
          "        if [[ $cur == -* ]]; then\n"
          "            COMPREPLY=($(compgen -W \"--version -T --format -v --verbose -q --quiet "
          "-h --help\" -- \"$cur\"))\n"
          "        else\n"
          "            COMPREPLY=($(compgen -W \"",
          fp);
    for (size_t i = 0; cli_commands[i]; i++)
        fprintf(fp, "%s%s", i ? " " : "", cli_commands[i]->name);
    fputs("\" -- \"$cur\"))\n"
          "        fi\n"
          "        return\n"
          "    fi\n"
          "    case \"$cmd $prev\" in\n",
          fp);
    for (size_t i = 0; cli_commands[i]; i++) {
        spellings_of(cli_commands[i], &s);
        bash_values(fp, cli_commands[i], &s);
    }
    fputs("    esac\n"
          "    local opts= valopts= words=\n"
          "    case $cmd in\n",
          fp);
    for (size_t i = 0; cli_commands[i]; i++) {
        spellings_of(cli_commands[i], &s);
        bash_lists(fp, cli_commands[i], &s);
    }
    fputs("        *) return ;;\n"
          "    esac\n"
          "    local operands=0\n"
          "    for ((i = cmdi + 1; i < COMP_CWORD; i++)); do\n"
          "        w=${COMP_WORDS[i]}\n"
          "        if [[ $w == = || $w == : ]]; then ((i++))\n"
          "        elif [[ \" $valopts \" == *\" $w \"* ]]; then ((i++))\n"
          "        elif [[ $w != -* ]]; then ((operands++)); fi\n"
          "    done\n"
          "    if [[ $cur == -* ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
          "    elif [[ -n $words && $operands -eq 0 ]]; then\n"
          "        COMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
          "    else\n"
          "        COMPREPLY=($(compgen -f -- \"$cur\"))\n"
          "    fi\n"
          "}\n"
          "complete -o filenames -F _dcbkit dcbkit\n",
          fp);
    print_bash_dcbtop(fp);
}

/* ---- zsh ------------------------------------------------------------------------------------ */

/* text inside a single-quoted zsh word, with ':' escaped for _describe */
static void zsh_quoted(FILE *fp, const char *text, bool colons)
{
    for (const char *p = text; *p; p++) {
        if (*p == '\'')
            fputs("'\\''", fp);
        else if (*p == ':' && colons)
            fputs("\\:", fp);
        else
            fputc(*p, fp);
    }
}

static void zsh_spec(FILE *fp, const struct spelling *o)
{
    bool is_short = strlen(o->flag) == 2;
    fprintf(fp, " \\\n            '%s", o->flag);
    enum value_kind k = kind_of(o->value);
    if (k == VALUE_NONE) {
        fputc('\'', fp);
        return;
    }
    fprintf(fp, "%s:", is_short ? "+" : "=");
    for (const char *p = o->value; *p; p++)
        fputc(*p == ':' ? '_' : *p, fp);
    if (k == VALUE_CHOICES) {
        fputs(":(", fp);
        print_choices(fp, o->value);
        fputs(")'", fp);
    } else {
        fputs(k == VALUE_FILE ? ":_files'" : k == VALUE_DIR ? ":_files -/'" : ": '", fp);
    }
}

static void print_zsh(FILE *fp)
{
    fputs("#compdef dcbkit dcbtop\n"
          "# zsh completion for dcbkit and dcbtop, made by 'dcbkit completion zsh' from their "
          "command tables.\n"
          "_dcbkit() {\n"
          "    if [[ $service == dcbtop ]]; then\n"
          "        _dcbtop\n"
          "        return\n"
          "    fi\n"
          "    local -a commands\n"
          "    commands=(\n",
          fp);
    for (size_t i = 0; cli_commands[i]; i++) {
        fputs("        '", fp);
        zsh_quoted(fp, cli_commands[i]->name, true);
        fputc(':', fp);
        zsh_quoted(fp, cli_commands[i]->summary, true);
        fputs("'\n", fp);
    }
    fputs("    )\n"
          "    if (( CURRENT == 2 )); then\n"
          "        _describe -t commands 'dcbkit command' commands\n"
          "        return\n"
          "    fi\n"
          "    local cmd=${words[2]}\n"
          "    words=(${words[2,-1]})\n"
          "    (( CURRENT-- ))\n"
          "    case $cmd in\n",
          fp);
    struct spellings s;
    for (size_t i = 0; cli_commands[i]; i++) {
        const struct cli_command *c = cli_commands[i];
        spellings_of(c, &s);
        fprintf(fp, "        %s) _arguments -s", c->name);
        for (size_t k = 0; k < s.n; k++)
            zsh_spec(fp, &s.v[k]);
        if (c->actions || !strcmp(c->name, "help")) {
            fputs(" \\\n            '1:word:(", fp);
            print_words(fp, c);
            fputs(")'", fp);
        }
        fputs(" \\\n            '*:file:_files' ;;\n", fp);
    }
    fputs("    esac\n"
          "}\n"
          "_dcbtop() {\n"
          "    _arguments -s",
          fp);
    spellings_of(&top_command, &s);
    for (size_t k = 0; k < s.n; k++)
        zsh_spec(fp, &s.v[k]);
    fputs(" \\\n            '*:file:_files'\n"
          "}\n"
          "if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then\n"
          "    _dcbkit \"$@\"\n"
          "else\n"
          "    compdef _dcbkit dcbkit dcbtop\n"
          "fi\n",
          fp);
}

static int completion_run(struct cli_ctx *ctx, int argc, char **argv)
{
    struct cli_parser p = { NULL, 0, NULL, NULL, NULL, NULL };
    int rc = cli_parse(ctx, &p, argc, argv);
    if (rc != CLI_NEXT)
        return rc;
    if (argc - optind != 1)
        return cli_usage_error(ctx, "takes one shell: bash or zsh");
    if (!strcmp(argv[optind], "bash"))
        print_bash(stdout);
    else if (!strcmp(argv[optind], "zsh"))
        print_zsh(stdout);
    else
        return cli_usage_error(ctx, "no completion for '%s': bash or zsh", argv[optind]);
    if (fflush(stdout) != 0)
        return cli_fail(1, "writing output", "%m");
    return 0;
}

static const struct cli_example completion_examples[] = {
    { "source <(dcbkit completion bash)", "Complete dcbkit in this bash session." },
    { "dcbkit completion bash > ~/.local/share/bash-completion/completions/dcbkit",
      "For every new bash (make install puts it under PREFIX/share/bash-completion)." },
    { "dcbkit completion zsh > ~/.zfunc/_dcbkit",
      "For zsh, with ~/.zfunc in $fpath before compinit (make install puts it under "
      "PREFIX/share/zsh/site-functions)." },
    { NULL, NULL },
};

static const struct cli_exit completion_exits[] = CLI_EXITS(NULL,
                                                            "the script could not be written");

const struct cli_command cmd_completion = {
    .name = "completion",
    .summary = "print a bash or zsh completion script for dcbkit",
    .synopsis = "dcbkit completion bash|zsh",
    .description = "Prints a script that completes dcbkit's commands, each command's first "
                   "words (calc's formulas, store's actions), its options and the values of "
                   "options that take choices, files or folders, and dcbtop's options and "
                   "their values. It is made from the same command tables as the help, so it "
                   "offers what the help lists.",
    .examples = completion_examples,
    .run = completion_run,
    .actions = "bash zsh",
    .exits = completion_exits,
};
