CREATE TABLE "gateway_names" (
	"module" text PRIMARY KEY NOT NULL,
	"displayname" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_exceptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"gateway" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"payment_id" text,
	"invoice_id" integer,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"reason" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "retired" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "promotions" ADD COLUMN "retired" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "payment_exceptions_received_idx" ON "payment_exceptions" USING btree ("received_at");