/*
 * Interrupt and exception entry stubs.  Each pushes a dummy error code where
 * the CPU does not push one, then the vector number, and joins trap_entry,
 * which saves the general registers and calls trap() (kernel/trap.c) with a
 * pointer to the resulting struct trapframe.  Everything runs in ring 0 on the
 * interrupted task's stack.  Generated once by hand-written shell; vectors
 * 0-47 and 255 (spurious) exist, anything else is a panic.
 */
.text
trap_entry:
    pusha
    cld
    push %esp
    call trap
    add $4, %esp
    popa
    add $8, %esp             /* vector and error code */
    iret
.global vector0
vector0:
    push $0
    push $0
    jmp trap_entry
.global vector1
vector1:
    push $0
    push $1
    jmp trap_entry
.global vector2
vector2:
    push $0
    push $2
    jmp trap_entry
.global vector3
vector3:
    push $0
    push $3
    jmp trap_entry
.global vector4
vector4:
    push $0
    push $4
    jmp trap_entry
.global vector5
vector5:
    push $0
    push $5
    jmp trap_entry
.global vector6
vector6:
    push $0
    push $6
    jmp trap_entry
.global vector7
vector7:
    push $0
    push $7
    jmp trap_entry
.global vector8
vector8:
    push $8
    jmp trap_entry
.global vector9
vector9:
    push $0
    push $9
    jmp trap_entry
.global vector10
vector10:
    push $10
    jmp trap_entry
.global vector11
vector11:
    push $11
    jmp trap_entry
.global vector12
vector12:
    push $12
    jmp trap_entry
.global vector13
vector13:
    push $13
    jmp trap_entry
.global vector14
vector14:
    push $14
    jmp trap_entry
.global vector15
vector15:
    push $0
    push $15
    jmp trap_entry
.global vector16
vector16:
    push $0
    push $16
    jmp trap_entry
.global vector17
vector17:
    push $17
    jmp trap_entry
.global vector18
vector18:
    push $0
    push $18
    jmp trap_entry
.global vector19
vector19:
    push $0
    push $19
    jmp trap_entry
.global vector20
vector20:
    push $0
    push $20
    jmp trap_entry
.global vector21
vector21:
    push $21
    jmp trap_entry
.global vector22
vector22:
    push $0
    push $22
    jmp trap_entry
.global vector23
vector23:
    push $0
    push $23
    jmp trap_entry
.global vector24
vector24:
    push $0
    push $24
    jmp trap_entry
.global vector25
vector25:
    push $0
    push $25
    jmp trap_entry
.global vector26
vector26:
    push $0
    push $26
    jmp trap_entry
.global vector27
vector27:
    push $0
    push $27
    jmp trap_entry
.global vector28
vector28:
    push $0
    push $28
    jmp trap_entry
.global vector29
vector29:
    push $29
    jmp trap_entry
.global vector30
vector30:
    push $30
    jmp trap_entry
.global vector31
vector31:
    push $0
    push $31
    jmp trap_entry
.global vector32
vector32:
    push $0
    push $32
    jmp trap_entry
.global vector33
vector33:
    push $0
    push $33
    jmp trap_entry
.global vector34
vector34:
    push $0
    push $34
    jmp trap_entry
.global vector35
vector35:
    push $0
    push $35
    jmp trap_entry
.global vector36
vector36:
    push $0
    push $36
    jmp trap_entry
.global vector37
vector37:
    push $0
    push $37
    jmp trap_entry
.global vector38
vector38:
    push $0
    push $38
    jmp trap_entry
.global vector39
vector39:
    push $0
    push $39
    jmp trap_entry
.global vector40
vector40:
    push $0
    push $40
    jmp trap_entry
.global vector41
vector41:
    push $0
    push $41
    jmp trap_entry
.global vector42
vector42:
    push $0
    push $42
    jmp trap_entry
.global vector43
vector43:
    push $0
    push $43
    jmp trap_entry
.global vector44
vector44:
    push $0
    push $44
    jmp trap_entry
.global vector45
vector45:
    push $0
    push $45
    jmp trap_entry
.global vector46
vector46:
    push $0
    push $46
    jmp trap_entry
.global vector47
vector47:
    push $0
    push $47
    jmp trap_entry
.global vector255
vector255:
    push $0
    push $255
    jmp trap_entry
.section .rodata
.global vector_table
vector_table:
    .long vector0
    .long vector1
    .long vector2
    .long vector3
    .long vector4
    .long vector5
    .long vector6
    .long vector7
    .long vector8
    .long vector9
    .long vector10
    .long vector11
    .long vector12
    .long vector13
    .long vector14
    .long vector15
    .long vector16
    .long vector17
    .long vector18
    .long vector19
    .long vector20
    .long vector21
    .long vector22
    .long vector23
    .long vector24
    .long vector25
    .long vector26
    .long vector27
    .long vector28
    .long vector29
    .long vector30
    .long vector31
    .long vector32
    .long vector33
    .long vector34
    .long vector35
    .long vector36
    .long vector37
    .long vector38
    .long vector39
    .long vector40
    .long vector41
    .long vector42
    .long vector43
    .long vector44
    .long vector45
    .long vector46
    .long vector47
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long 0
    .long vector255
