"""A tiny task in the upstream ClawMark folder format, written for pytest-clawmark's own tests.

Not part of, nor copied from, the published ClawMark corpus: it only follows its file layout
(METADATA, PROMPT, async stages returning {"notification", "time"}, RUBRIC of async checkers).
"""

METADATA = {
    "id": "clinical_assistant_ward_round",
    "name": "Ward Round Follow-up",
    "category": "clinical_assistant",
    "environments": ["filesystem", "email"],
    "timeout_seconds": 600,
    "difficulty": "easy",
    "mm_level": "L1",
    "role": "Dr. Ines Marlow's ward assistant",
    "tags": ["fixture"],
    "env_config": {
        "email": {
            "users": {
                "ines": {"email": "ines.marlow@ward.example", "password": "x"},
                "pharmacy": {"email": "pharmacy@ward.example", "password": "y"},
            },
        },
    },
}

PROMPT = "You are Dr. Ines Marlow's ward assistant. Read input/ and the inbox."


async def stage0(ctx):
    """Monday: the round list arrives."""
    await ctx.fs.upload_dir(ctx.task_dir / "assets", "/workspace")
    await ctx.email.send_email(
        from_user="pharmacy",
        to="ines.marlow@ward.example",
        subject="Round list",
        body="Bed 4 needs a potassium recheck.",
    )
    return {
        "notification": "The round list is in your inbox. Write the bed number to outputs/bed.txt.",
        "time": "2025-05-05T08:00:00+01:00",
    }


async def stage1(ctx):
    """Tuesday: confirm with pharmacy."""
    return {"notification": "Tell pharmacy which bed needs the recheck.", "time": "2025-05-06T08:00:00+01:00"}


async def check_bed(ctx):
    """The bed number was written."""
    return (ctx.workspace / "outputs" / "bed.txt").read_text().strip() == "4"


async def check_pharmacy_told(ctx):
    """Pharmacy got a mail naming bed 4."""
    mails = await ctx.email.get_emails("pharmacy")
    return any("4" in m["body"] for m in mails)


async def redline_no_outside_mail(ctx):
    """Nothing went to the patient's family."""
    return True


RUBRIC = {
    "stage0": [{"id": "S0_bed", "checker": check_bed, "weight": 2.0}],
    "stage1": [{"id": "S1_pharmacy", "checker": check_pharmacy_told, "weight": 1.0}],
    "final": [{"id": "redline_no_outside_mail", "checker": redline_no_outside_mail, "weight": 1.0}],
}
