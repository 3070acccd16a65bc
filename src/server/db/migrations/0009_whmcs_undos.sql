CREATE TABLE "whmcs_undos" (
	"id" serial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"whmcs_id" integer NOT NULL,
	"reason" text NOT NULL,
	"claim_scope" text,
	"claim_key" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_token" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "whmcs_undos_record_key" ON "whmcs_undos" USING btree ("action","whmcs_id");--> statement-breakpoint
CREATE INDEX "whmcs_undos_due_idx" ON "whmcs_undos" USING btree ("next_attempt_at") WHERE "whmcs_undos"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "whmcs_undos_claim_idx" ON "whmcs_undos" USING btree ("claim_scope","claim_key");