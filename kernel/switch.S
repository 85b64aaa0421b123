/*
 * struct task *switch_context(struct task *prev, struct task *next)
 *
 * The one context switch.  Saves the callee-saved registers on prev's stack,
 * stores the stack pointer in prev->saved_esp (offset 0), loads next's and
 * returns on next's stack.  The return value is the task we switched away
 * from, as seen by the task that resumes (Linux's switch_to "last"): the
 * resumed task's own locals still name whoever ran before *it* slept.
 *
 * A new task's stack is prepared by task_create so that this ret lands in
 * task_first_entry with the previous task in EAX.
 */
.section .text.switch_path, "ax"
.global switch_context
switch_context:
    mov 4(%esp), %eax        /* prev */
    mov 8(%esp), %edx        /* next */
    push %ebp
    push %ebx
    push %esi
    push %edi
    mov %esp, (%eax)         /* prev->saved_esp */
    mov (%edx), %esp         /* next->saved_esp */
    pop %edi
    pop %esi
    pop %ebx
    pop %ebp
    ret                      /* EAX still holds prev */

.global task_first_entry
task_first_entry:
    push %eax                /* the task we came from */
    call task_start          /* kernel/task.c: finishes the switch, runs entry, exits */
1:  hlt
    jmp 1b
